-- Lua-level test: the clothcheck module — conditions, Lua-defined conditions, meshes.
local cc = require "clothcheck"

-- every registered variant is listed, with its source and claim
local list = cc.conditions()
assert(#list >= 4, "at least the stretch, shear and spring variants")
local seen = {}
for _, c in ipairs(list) do
  assert(type(c.source) == "string" and #c.source > 0)
  assert(c.claim == "exact" or c.claim == "frozen-magnitude" or c.claim == "none")
  seen[c.condition .. "/" .. c.variant] = c
end
assert(seen["stretch/bw98"] and seen["shear/normalized"] and seen["spring/linear"])

-- stretch by hand (docs/conditions.md): a = 1/2, alpha = sqrt(1/2), w_u = (2,0,0), w_v = (0,.5,.5)
local s = cc.condition("stretch", "bw98")
assert(s.nv == 3 and s.ncomp == 2 and s.claim == "exact" and not s.lua)
local r = s:eval({0,0,0, 2,0,0, 0,0.5,0.5}, {uv = {{0,0},{1,0},{0,1}}, area_power = 0.5})
local alpha = math.sqrt(0.5)
assert(math.abs(r.value[1] - alpha * (2 - 1)) < 1e-15)
assert(math.abs(r.value[2] - alpha * (math.sqrt(0.5) - 1)) < 1e-15)
assert(#r.gradient == 2 and #r.gradient[1] == 9)
assert(#r.hessian == 2 and #r.hessian[1] == 9 and #r.hessian[1][1] == 9)
assert(math.abs(r.gradient[1][4] - alpha) < 1e-15)       -- dC_u/dx_{1,x} = alpha (7), (14)
-- nested points work too
local r2 = s:eval({{0,0,0}, {2,0,0}, {0,0.5,0.5}}, {uv = {0,0, 1,0, 0,1}, area_power = 0.5})
assert(r2.value[1] == r.value[1])

-- a spring written in Lua agrees with the registered one
local spring = cc.condition("spring", "linear")
local function norm(x) return math.sqrt((x[1]-x[4])^2 + (x[2]-x[5])^2 + (x[3]-x[6])^2) end
local mine = cc.define{
  condition = "spring", variant = "student", nv = 2, ncomp = 1, claim = "exact",
  value = function(x, rest) return norm(x) - rest.rest_length end,
  gradient = function(x)
    local d = norm(x)
    local g = {}
    for s = 1, 3 do g[s] = (x[s] - x[s+3]) / d; g[s+3] = -g[s] end
    return g
  end,
  hessian = function(x)
    local d, h = norm(x), {}
    local u = {(x[1]-x[4])/d, (x[2]-x[5])/d, (x[3]-x[6])/d}
    for i = 1, 6 do
      h[i] = {}
      for j = 1, 6 do
        local s, t = (i-1) % 3 + 1, (j-1) % 3 + 1
        local sign = ((i <= 3) == (j <= 3)) and 1 or -1
        h[i][j] = sign * (((s == t) and 1 or 0) - u[s] * u[t]) / d
      end
    end
    return h
  end,
}
assert(mine.lua and mine.condition == "spring" and mine.variant == "student")
local x = {0.1, 0.2, 0.3, 1.4, -0.5, 0.9}
local a, b = mine:eval(x, {rest = 0.7}), spring:eval(x, {rest = 0.7})
assert(math.abs(a.value[1] - b.value[1]) < 1e-15)
for i = 1, 6 do
  assert(math.abs(a.gradient[1][i] - b.gradient[1][i]) < 1e-15)
  for j = 1, 6 do assert(math.abs(a.hessian[1][i][j] - b.hessian[1][i][j]) < 1e-15) end
end

-- meshes: a 4 x 3 grid, hinges in Pritchard's labels, OBJ round trip
local m = cc.grid(4, 3, 1.5, 1.0)
assert(m.nv == 12 and m.nt == 12)
assert(m.nh == 23 - 10)   -- interior edges: 23 edges, 10 on the boundary
assert(m.nt == 2 * 3 * 2)
local x0, x1, x2, x3 = m:hinge(1)
assert(x0 >= 1 and x3 <= m.nv and x1 ~= x2)
local px, py, pz = m:position(4)
assert(px == 1.5 and py == 0 and pz == 0)
m:set_position(4, 1.5, 0, 0.25)
assert(select(3, m:position(4)) == 0.25)
local path = cc.outdir() .. "/m.obj"
assert(cc.mkdir(cc.outdir()))
assert(m:write_obj(path))
local back = assert(cc.read_obj(path))
assert(back.nv == m.nv and back.nt == m.nt and back.nh == m.nh)
assert(select(3, back:position(4)) == 0.25)
local u, v = back:uv(4)
assert(u == 1.5 and v == 0)
os.remove(path)
local none, msg = cc.read_obj(cc.outdir() .. "/nonexistent.obj")
assert(none == nil and msg:find("cannot open"))
-- output helpers: mkdir -p, atomic CSV, timing
local dir = cc.outdir() .. "/csv"
assert(cc.mkdir(dir .. "/a/b"))
assert(cc.write_csv(dir .. "/a/b/s.csv", {"t", "e"}, {{0, 1.5}, {0.25, -2}}))
local f = assert(io.open(dir .. "/a/b/s.csv"))
assert(f:read("a") == "t,e\n0,1.5\n0.25,-2\n")
f:close()
local ok, msg = cc.write_csv(cc.outdir() .. "/s.csv/t.csv", {"t"}, {{1}})   -- no folder s.csv/
assert(ok == nil and msg:find("cannot write"))
ok, msg = pcall(cc.write_csv, "/nonexistent/dir/s.csv", {"t"}, {{1}})
assert(not ok and msg:find("sandbox: cannot write '/nonexistent/dir/s.csv'"))
os.remove(dir .. "/a/b/s.csv"); os.remove(dir .. "/a/b"); os.remove(dir .. "/a")
local t0 = cc.wall_time()
assert(type(t0) == "number" and cc.wall_time() >= t0)

-- the simulator: a small cloth pinned at two corners sags under gravity and stays finite
local cloth = cc.grid(6, 6, 1, 1)
local sim = cc.sim(cloth, {preset = "pritchard-table1", h = 0.01})
sim:pin(1); sim:pin(6)
assert(sim.nv == 36)
assert(sim:step(5))
assert(math.abs(sim.time - 0.05) < 1e-12)
local z = select(3, sim:position(31))
assert(z < 0, "a free corner falls")
local e = sim:energies()
assert(e.gravity < 0 and e.stretch >= 0 and e.kinetic > 0)
assert(#sim:element_energies("stretch") == cloth.nt and #sim:element_energies("bend") == cloth.nh)
assert(sim:stats().steps == 5)
-- a Lua-defined condition runs in the solve: a stiff spring along the bottom edge
sim:add_condition(mine, {{1, 2}, {2, 3}}, 100, 1)
assert(sim:step())
-- Bridson's bending force model by name: the variant reads "bridson", the hinges have energies
local bsim = cc.sim(cloth, {preset = "pritchard-table1", h = 0.01, bend_condition = "bridson-force", k_bend = 1e-3})
bsim:pin(1); bsim:pin(6)
assert(bsim:params().bend_condition == "bridson-force" and bsim:params().bend_variant == "bridson")
assert(bsim:step(5))
assert(bsim:energies().bend > 0 and #bsim:element_energies("bend") == cloth.nh)

-- extreme scales: refused with a message naming the coordinate, never inf or NaN; a Lua
-- condition returning a number that is not finite is an error naming it when evaluated
local sp = cc.condition("spring", "linear")
local okx, msgx = pcall(sp.eval, sp, {0, 0, 0, 1e200, 0, 0}, {rest = 1})
assert(not okx and msgx:find("beyond 1e%+30"), msgx)
okx, msgx = pcall(sp.eval, sp, {0, 0, 0, 1e-200, 0, 0}, {rest = 1})
assert(not okx and msgx:find("closer than 1e%-30"), msgx)
local nan = cc.define{condition = "nan", variant = "v", nv = 2, value = function() return 0 / 0 end,
  gradient = function() return {0, 0, 0, 0, 0, 0} end, hessian = function() local h = {} for i = 1, 36 do h[i] = 0 end return h end}
okx, msgx = pcall(nan.eval, nan, {0, 0, 0, 1, 0, 0})
assert(not okx and msgx:find("value returned nan as number 1 %(numbers must be finite%)"), msgx)
-- audited, the same NaN fails the audit's row "finite", which names where (no error)
local an = cc.audit(nan, {samples = 3})
assert(an:failed() and an:table():find("target       finite              NOT finite at", 1, true))
assert(an:diagnosis()[1].kind == "non-finite" and an:diagnosis()[1].text:find("The value is NaN at ", 1, true))

-- Bridson's bending force on one hinge: its Jacobian against central differences of the
-- force, the net force zero, and bad hinges refused with a message
do
  local hx = {-0.9, 0.15, 0.05,  0.05, -0.55, 0.02,  -0.02, 0.7, -0.04,  0.6, 0.3, 0.75}
  local r = cc.bridson_force(hx, {rest = 0.2, k = 2})
  assert(#r.force == 12 and #r.jacobian == 12 and #r.jacobian[1] == 12)
  local worst, net = 0, {0, 0, 0}
  for i = 1, 12 do net[(i - 1) % 3 + 1] = net[(i - 1) % 3 + 1] + r.force[i] end
  for m = 1, 12 do
    local xp, xm = {table.unpack(hx)}, {table.unpack(hx)}
    xp[m], xm[m] = xp[m] + 1e-6, xm[m] - 1e-6
    local fp, fm = cc.bridson_force(xp, {rest = 0.2, k = 2}).force, cc.bridson_force(xm, {rest = 0.2, k = 2}).force
    for i = 1, 12 do worst = math.max(worst, math.abs((fp[i] - fm[i]) / 2e-6 - r.jacobian[i][m])) end
  end
  assert(worst < 1e-8, "bridson_force: Jacobian vs central differences " .. worst)
  assert(math.abs(net[1]) + math.abs(net[2]) + math.abs(net[3]) < 1e-14, "bridson_force: no net force")
  local okb, msgb = pcall(cc.bridson_force, {0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0})
  assert(not okb and msgb:find("zero size"), msgb)
  okb, msgb = pcall(cc.bridson_force, hx, 3)
  assert(not okb and msgb:find("options must be a table"), msgb)
end

print("lua_module: all assertions passed")
