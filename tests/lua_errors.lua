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

-- a closed mesh refuses use, and closing twice is harmless
do
  local g <close> = cc.grid(2, 2)
  assert(g.nv == 4)
end
local g = cc.grid(2, 2)
getmetatable(g).__close(g)
getmetatable(g).__close(g)
fails("attempt to use a closed mesh", g.position, g, 1)

-- the sandbox: no programs, no native code
assert(os.execute == nil and io.popen == nil and package.loadlib == nil)
print("lua_errors: all assertions passed")
