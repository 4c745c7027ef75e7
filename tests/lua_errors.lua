-- Lua-level test: errors are Lua errors with a clear message; nothing crashes.
local cc = require "clothcheck"

local function fails(pattern, f, ...)
  local ok, msg = pcall(f, ...)
  assert(not ok, "expected an error matching '" .. pattern .. "'")
  assert(tostring(msg):find(pattern, 1, true), "got: " .. tostring(msg))
end

local s = cc.condition("stretch")
fails("(unknown condition 'twist')", cc.condition, "twist")
fails("unknown variant 'nope' of shear", cc.condition, "shear", "nope")
fails("unknown parameter 'k_strech' (did you mean 'k_stretch'?", cc.sim, cc.grid(3, 3, 1, 1), {k_strech = 1})
fails("expected 9 numbers (3 points), got 2", s.eval, s, {1, 2})
fails("a triangle condition needs opts.uv", s.eval, s, {0,0,0, 1,0,0, 0,1,0})
fails("degenerate (u,v) triangle", s.eval, s, {0,0,0, 1,0,0, 0,1,0}, {uv = {0,0, 1,1, 2,2}})
fails("is not a number", s.eval, s, {0,0,0, 1,"a",0, 0,1,0}, {uv = {0,0, 1,0, 0,1}})
fails("need 2..100000 vertices per side", cc.grid, 1, 5)
fails("size must be positive", cc.grid, 3, 3, -1)
local m = cc.grid(3, 3)
fails("vertex index out of range 1..9", m.position, m, 10)
fails("hinge index out of range", m.hinge, m, 0)

-- Lua-defined conditions: malformed definitions and callbacks that raise
fails("field 'gradient' must be a function", cc.define, {nv = 2, value = function() return 0 end})
fails("field 'nv' must be 2, 3 or 4", cc.define, {nv = 7, value = print, gradient = print, hessian = print})
local broken = cc.define{nv = 2, value = function() return 0 end,
                         gradient = function() error("student bug here") end,
                         hessian = function() return {} end}
fails("student bug here", broken.eval, broken, {0,0,0, 1,0,0}, {rest = 1})
local short = cc.define{nv = 2, value = function() return 0 end,
                        gradient = function() return {1, 2, 3} end,
                        hessian = function() return {} end}
fails("gradient must return 6 numbers", short.eval, short, {0,0,0, 1,0,0}, {rest = 1})

-- names of Lua conditions name files: no '/', no leading '.', nothing a shell or gnuplot reads
local fns = {nv = 2, value = function() return 0 end, gradient = function() return {0,0,0,0,0,0} end,
             hessian = function() return {} end}
for _, bad in ipairs{"a/b", "..", ".hidden", "x`id`", "two words", ""} do
  local d = {}
  for k, v in pairs(fns) do d[k] = v end
  d.condition = bad
  fails("may hold only letters, digits", cc.define, d)
end

-- plots: option fields are words only; titles cannot run commands (gnuplot runs `...` in
-- double-quoted strings, so titles are written single-quoted)
local dir = cc.outdir()
assert(cc.mkdir(dir))
local marker = dir .. "/ran"
os.remove(marker)
local xy = {x = {0, 1}, y = {0, 1}}
fails("plot field 'key' may hold only", cc.plot, {dir = dir, name = "k", key = "top\nset output", series = {xy}})
fails("plot field 'with' may hold only", cc.plot,
      {dir = dir, name = "w", series = {{x = {0, 1}, y = {0, 1}, with = "lines`touch " .. marker .. "`"}}})
fails("must be {lo, hi} with lo < hi", cc.plot, {dir = dir, name = "r", yrange = {1, 0}, series = {xy}})
local quoted = "it's `touch " .. marker .. "` \"q\""
cc.plot{dir = dir, name = "t", title = quoted, xlabel = quoted, series = {{title = quoted, x = {0, 1}, y = {0, 1}}}}
assert(io.open(marker) == nil, "a plot title ran a command")
local gp = assert(io.open(dir .. "/t.gp")):read("a")
assert(gp:find("'it''s `touch", 1, true), "titles are single-quoted with '' for '")
assert(cc.plot{dir = dir, name = "range", yrange = {-1, 2}, xrange = {0, 1}, key = "top left", series = {xy}} ~= nil)
assert(assert(io.open(dir .. "/range.gp")):read("a"):find("set yrange [-1:2]", 1, true))

-- figures: log axes labelled with powers of ten, the default key outside the plot, a legend
-- panel, titles on two lines, surfaces on a given z scale with one tic spacing for the three axes
local function gp(name) return assert(io.open(dir .. "/" .. name .. ".gp")):read("a") end
cc.plot{dir = dir, name = "logs", logx = true, logy = true, series = {{x = {1e-8, 1}, y = {1e-3, 100}}}}
assert(gp("logs"):find('set format y "10^{%L}"', 1, true) and gp("logs"):find('set format x "10^{%L}"', 1, true))
assert(gp("logs"):find("set key outside right top", 1, true), "the default key covers no curve")
cc.plot{dir = dir, name = "legend", layout = {1, 2}, panels = {{key = "off", series = {{title = "a", x = {0, 1}, y = {0, 1}, with = "lines lt 1"}}},
  {legend_only = true, series = {{title = "a", x = {}, y = {}, with = "lines lt 1"}}}}}
assert(gp("legend"):find("plot NaN with lines lt 1 title 'a'", 1, true) and gp("legend"):find("set key off", 1, true))
cc.plot{dir = dir, name = "twolines", xlabel = "t (s)\nnot drawn: x", series = {xy}}
assert(gp("twolines"):find([[set xlabel 't (s)'."\n".'not drawn: x']], 1, true), gp("twolines"))
cc.plot_surface{dir = dir, name = "zr", nu = 2, nv = 2, x = {0,0,0, 0.5,0,-0.1, 0,0.1,0, 0.5,0.1,-0.1}, zrange = {-0.4, 0}}
local zr = gp("zr")
assert(zr:find("set zrange [-0.4:0]", 1, true) and zr:find("set cbrange [-0.4:0]", 1, true), zr)
assert(zr:find("set xtics 0.1", 1, true) and zr:find("set ytics 0.1", 1, true) and zr:find("set xyplane at -0.4", 1, true), zr)
fails("must be {lo, hi} with lo < hi", cc.plot_surface, {dir = dir, name = "zr2", nu = 2, nv = 2, x = {0,0,0, 1,0,0, 0,1,0, 1,1,0}, zrange = {0, 0}})

-- animations: frames are checked like panels before any file is written
fails("plot_animation needs 1..10000 frames", cc.plot_animation, {dir = dir, name = "a0", frames = {}})
fails("plot_animation needs frames", cc.plot_animation, {dir = dir, name = "a1"})
fails("delay must be 1..1000", cc.plot_animation, {dir = dir, name = "a2", delay = 0, frames = {{series = {xy}}}})
fails("plot field 'key' may hold only", cc.plot_animation,
      {dir = dir, name = "a3", frames = {{series = {xy}}, {key = "top\nset output", series = {xy}}}})
assert(io.open(dir .. "/a3.gp") == nil, "a refused animation wrote its script")
assert(cc.plot_animation{dir = dir, name = "a4", frames = {{title = quoted, series = {xy}}, {series = {xy}}}} ~= nil)
assert(io.open(marker) == nil, "an animation title ran a command")
assert(assert(io.open(dir .. "/a4.gp")):read("a"):find("gif animate", 1, true))

-- a closed mesh refuses use, and closing twice is harmless
do
  local g <close> = cc.grid(2, 2)
  assert(g.nv == 4)
end
local g = cc.grid(2, 2)
getmetatable(g).__close(g)
getmetatable(g).__close(g)
fails("attempt to use a closed mesh", g.position, g, 1)

-- every options table refuses a key it does not know, naming it and the valid ones: a
-- misspelt option is an error, never silently the default
local uv = {uv = {0,0, 1,0, 0,1}}
local tri = {0,0,0, 2,0,0, 0,0.5,0.5}
fails("stretch/bw98: unknown parameter 'area_pwr'; valid: uv, area_power, bu, bv, want", s.eval, s, tri,
      {uv = uv.uv, area_pwr = 0.5})
assert(math.abs(s:eval(tri, {uv = uv.uv, area_power = 0.5}).value[1] - math.sqrt(0.5)) < 1e-15)
fails("stretch/bw98: unknown parameter 'rest'; valid: uv, area_power, bu, bv, want", s.eval, s, tri, {uv = uv.uv, rest = 1})
local bend = cc.condition("bend", "pritchard")
local hinge = {0,1,0, 0.5,0,0, -0.5,0,0, 0,-1,0.2}
fails("bend/pritchard: unknown parameter 'uv'; valid: rest, x_rest, want", bend.eval, bend, hinge, uv)
fails("bend/pritchard: unknown parameter 'want'; valid: rest, x_rest", bend.derive, bend, hinge, {want = "value"})
fails("spring/linear: unknown parameter 'rest_length'; valid: rest, want", cc.condition("spring").eval,
      cc.condition("spring"), {0,0,0, 1,0,0}, {rest_length = 2})
fails("parameters are named, not given by position", s.eval, s, tri, {{0,0}, {1,0}, {0,1}})
fails("unknown parameter 'sample'; valid: samples, seed, reference, edges, case, area_power, sweeps, quantities, "
      .. "claims, as_energy, k", cc.audit, s, {sample = 5})
fails("unknown parameter 'kk'; valid: rest, k", cc.bridson_force, hinge, {kk = 2})
fails("k must be positive", cc.bridson_force, hinge, {k = -5})
local fns3 = {value = function() return 0 end, gradient = function() return {0,0,0,0,0,0} end,
              hessian = function() local h = {} for i = 1, 36 do h[i] = 0 end return h end}
fails("unknown parameter 'ncomps'; valid: condition, variant, nv, ncomp, claim, value, gradient, hessian, "
      .. "value_frozen, steps", cc.define, {nv = 2, ncomps = 1, value = fns3.value, gradient = fns3.gradient,
      hessian = fns3.hessian})
fails("step 1: unknown parameter 'derivate'", cc.define, {nv = 2, value = fns3.value, gradient = fns3.gradient,
      hessian = fns3.hessian, steps = {{name = "q", value = fns3.value, derivate = fns3.gradient}}})
fails("unknown parameter 'log_y'; valid: dir, name, width, height, title", cc.plot,
      {dir = dir, name = "u1", log_y = true, series = {xy}})
fails("series 1: unknown parameter 'label'; valid: title, x, y, with", cc.plot,
      {dir = dir, name = "u2", series = {{x = {0, 1}, y = {0, 1}, label = "a"}}})
fails("panel 2: unknown parameter 'ylog'", cc.plot,
      {dir = dir, name = "u3", panels = {{series = {xy}}, {ylog = true, series = {xy}}}})
fails("panel 1, series 1: unknown parameter 'colour'", cc.plot,
      {dir = dir, name = "u4", panels = {{series = {{x = {0}, y = {0}, colour = 1}}}}})
fails("frame 1: unknown parameter 'xrnage'", cc.plot_animation, {dir = dir, name = "u5", frames = {{xrnage = {0, 1}, series = {xy}}}})
fails("unknown parameter 'colour'", cc.plot_surface, {dir = dir, name = "u6", nu = 2, nv = 2, x = {0,0,0, 1,0,0, 0,1,0, 1,1,0}, colour = {}})
fails("unknown parameter 'red'", cc.plot_image, {dir = dir, name = "u7", nu = 2, nv = 2, red = {}})
for _, n in ipairs{"u1", "u2", "u3", "u4", "u5", "u6", "u7"} do
  assert(io.open(dir .. "/" .. n .. ".gp") == nil, "a refused plot wrote its script")
end
fails("unknown parameter 'k_bnd'", cc.sim, cc.grid(3, 3), {k_bnd = 1})

-- positions that are not numbers are named as such, not as out of range
fails("coordinate y of vertex 1 is nan, not a finite number", s.eval, s, {0,0,0, 1,0/0,0, 0,1,0}, uv)
fails("coordinate x of vertex 0 is -inf, not a finite number", s.eval, s, {-1/0,0,0, 1,0,0, 0,1,0}, uv)

-- the sandbox: no programs, no native code
assert(os.execute == nil and io.popen == nil and package.loadlib == nil)
print("lua_errors: all assertions passed")
