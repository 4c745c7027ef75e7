-- Lua test: the derivation stepper (cond:derive, clothcheck.derivation, steps in
-- clothcheck.define) and the audit's diagnosis (audit:diagnosis) of mistakes planted into
-- conditions written in Lua, one per kind.
local cc = require "clothcheck"

-- registered variants: the same verdicts as `clothcheck derive`
local d = cc.condition("bend", "pritchard"):derive()
assert(d.sample == true and #d.x == 4 and #d.steps == 18)
assert(d.first_departure.name == "n^A^" and d.first_departure.verdict == "frozen")
assert(d.first_departure.equations == "001 (24), (40)" and d.first_departure.step == 7)
assert(d.steps[17].verdict == "frozen" and d.steps[17].derivative_error_frozen < 1e-12)
assert(cc.condition("bend", "pritchard-exact"):derive().first_departure == nil)
local s = cc.condition("stretch"):derive({0, 0, 0, 1, 0, 0, 0, 1, 0.2}, {uv = {0, 0, 1, 0, 0, 1}})
assert(s.sample == false and s.first_departure == nil and #s.steps == 13)
local list = cc.derivation(cc.condition("shear", "normalized"))
assert(#list == 11 and list[7].equations == "001 (A.3)" and list[7].order == 2)

-- a spring written in Lua, with its derivation as steps
local function sub(x) return {x[1] - x[4], x[2] - x[5], x[3] - x[6]} end
local function len(v) return math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2) end
local function spring_gradient(x)
  local v = sub(x); local l = len(v)
  return {v[1] / l, v[2] / l, v[3] / l, -v[1] / l, -v[2] / l, -v[3] / l}
end
local function spring_hessian(x, rest, over)   -- 6 x 6: +-(I - d^ d^T) / |d| (over: the divisor)
  local v = sub(x); local l = len(v); local H = {}
  for i = 1, 6 do
    H[i] = {}
    for j = 1, 6 do
      local a, b = (i - 1) % 3 + 1, (j - 1) % 3 + 1
      local p = ((a == b) and 1 or 0) - v[a] * v[b] / (l * l)
      H[i][j] = ((i <= 3) == (j <= 3) and 1 or -1) * p / (over and over(x, rest, l) or l)
    end
  end
  return H
end
local function dlen_step(wrong)
  return {name = "|d|", equations = "004", value = function(x) return len(sub(x)) end,
          derivative = function(x)
            local g = spring_gradient(x)
            if wrong then g[6] = 2 * g[6] end
            return g
          end}
end
local function spring(fields)
  local def = {condition = "spring", variant = "lua", nv = 2,
               value = function(x, rest) return len(sub(x)) - rest.rest_length end,
               gradient = spring_gradient, hessian = spring_hessian}
  for k, v in pairs(fields or {}) do def[k] = v end
  return cc.define(def)
end

local steps = {
  {name = "d", equations = "004", value = function(x) return sub(x) end,
   derivative = function() return {{1, 0, 0, -1, 0, 0}, {0, 1, 0, 0, -1, 0}, {0, 0, 1, 0, 0, -1}} end},
  dlen_step(false),
  {name = "|d|''", order = 2, value = function(x) return len(sub(x)) end,
   derivative = function(x, rest) return spring_hessian(x, rest) end},
}
local good = spring{steps = steps}
local r = good:derive({0, 0, 0, 1.3, 0.4, -0.2}, {rest = 1})
assert(r.first_departure == nil, "a right derivation has no departure")
for _, st in ipairs(r.steps) do
  assert(st.verdict == "exact" and st.reference == "central4" and st.derivative_error_frozen == nil)
end
assert(#cc.derivation(good) == 3 and cc.derivation(good)[3].order == 2)
steps[2] = dlen_step(true)
local bad = spring{steps = steps}
r = bad:derive({0, 0, 0, 1.3, 0.4, -0.2}, {rest = 1})
assert(r.steps[1].verdict == "exact", "the step before the planted one stays exact")
assert(r.first_departure.name == "|d|" and r.first_departure.verdict == "differs")
assert(not pcall(spring, {steps = {{name = "x"}}}), "a step without value and derivative is refused")
local ok, err = pcall(function()
  return spring{steps = {{name = "boom", value = function() error("my step") end, derivative = function() end}}}
    :derive({0, 0, 0, 1, 0, 0}, {rest = 1})
end)
assert(not ok and err:find("my step"), "an error inside a step reaches the caller")

-- the diagnosis: one planted mistake per kind
local function kinds(cond, quantity)
  local a = cc.audit(cond, {samples = 40, edges = false, reference = "fd-true"})
  local found = {}
  for _, f in ipairs(a:diagnosis()) do
    if f.quantity == quantity then found[f.kind] = f end
  end
  return found, a
end
local function with_gradient(change)
  return spring{gradient = function(x, rest)
    local g = spring_gradient(x)
    change(g, x, rest)
    return g
  end}
end

local f = kinds(with_gradient(function(g) for i = 1, 6 do g[i] = -g[i] end end), "gradient")
assert(f.sign and f.sign.factor == -1, "sign")
f = kinds(with_gradient(function(g) for i = 1, 6 do g[i] = 3 * g[i] end end), "gradient")
assert(f.scale and math.abs(f.scale.factor - 3) < 1e-6, "scale, factor 3")
f = kinds(with_gradient(function(g) for i = 1, 6 do g[i] = g[i] + ({0.3, -0.2, 0.1})[(i - 1) % 3 + 1] end end),
          "gradient")
assert(f.translation, "translation")
f = kinds(with_gradient(function(g, x)
  local w = {0.2, 0.5, -0.3}
  for m = 0, 1 do
    local c = {(x[1] + x[4]) / 2, (x[2] + x[5]) / 2, (x[3] + x[6]) / 2}
    local a = {x[3 * m + 1] - c[1], x[3 * m + 2] - c[2], x[3 * m + 3] - c[3]}
    local t = {w[2] * a[3] - w[3] * a[2], w[3] * a[1] - w[1] * a[3], w[1] * a[2] - w[2] * a[1]}
    for s = 1, 3 do g[3 * m + s] = g[3 * m + s] + t[s] end
  end
end), "gradient")
assert(f.rotation and not f.translation, "rotation")
f = kinds(with_gradient(function(g) for i = 4, 6 do g[i] = 0.5 * g[i] end end), "gradient")
assert(f.localized and #f.localized.vertices == 1 and f.localized.vertices[1] == 1, "localized on x1")
f = kinds(with_gradient(function(g, x)
  local v = sub(x)
  for s = 1, 3 do g[s] = g[s] + 0.1 * v[s]; g[3 + s] = g[3 + s] - 0.1 * v[s] end
end), "gradient")
assert(f.direction and f.direction.along == "d = x0 - x1" and not f.scale, "direction along d")

f = kinds(spring{hessian = function(x, rest)
  local H = spring_hessian(x, rest)
  local v = sub(x)
  local S = {{0, -v[3], v[2]}, {v[3], 0, -v[1]}, {-v[2], v[1], 0}}
  for a = 1, 3 do for b = 1, 3 do H[a][3 + b] = H[a][3 + b] + 0.5 * S[a][b] end end
  return H
end}, "hessian")
assert(f.asymmetric and f.asymmetric.text:find("lower triangle, mirrored, matches"), "asymmetric")
f = kinds(spring{hessian = function(x, rest)
  return spring_hessian(x, rest, function(_, r) return r.rest_length end)
end}, "hessian")
assert(f["off-rest"], "off-rest: 1/L in place of 1/|d|")

-- frozen magnitudes: C = d^_x, its gradient taken with |d| held constant
local unit_x = cc.define{condition = "unitx", variant = "lua", nv = 2,
  value = function(x) return (x[1] - x[4]) / len(sub(x)) end,
  value_frozen = function(x, xf) return (x[1] - x[4]) / len(sub(xf)) end,
  gradient = function(x) local l = len(sub(x)); return {1 / l, 0, 0, -1 / l, 0, 0} end,
  hessian = function() local H = {}; for i = 1, 36 do H[i] = 0 end; return H end}
f = kinds(unit_x, "gradient")
assert(f["frozen-magnitude"], "frozen-magnitude")

-- none of the kinds: the area of a triangle with a scaling mode added to its gradient
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function pt(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function minus(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local area = cc.define{condition = "area", variant = "lua", nv = 3,
  value = function(x) return 0.5 * len(cross(minus(pt(x, 1), pt(x, 0)), minus(pt(x, 2), pt(x, 0)))) end,
  gradient = function(x)
    local n = cross(minus(pt(x, 1), pt(x, 0)), minus(pt(x, 2), pt(x, 0)))
    local l = len(n); n = {n[1] / l, n[2] / l, n[3] / l}
    local c = {(x[1] + x[4] + x[7]) / 3, (x[2] + x[5] + x[8]) / 3, (x[3] + x[6] + x[9]) / 3}
    local g = {}
    for m = 0, 2 do
      local e = minus(pt(x, (m + 1) % 3), pt(x, (m + 2) % 3))
      local v = cross(e, n)
      for s = 1, 3 do g[3 * m + s] = 0.5 * v[s] + 0.2 * (x[3 * m + s] - c[s]) end
    end
    return g
  end,
  hessian = function() local H = {}; for i = 1, 81 do H[i] = 0 end; return H end}
local a
f, a = kinds(area, "gradient")
assert(f.unknown and next(f, next(f)) == nil, "unknown, and nothing else")
assert(a:rows()[1].diagnosis[1].kind == "unknown")

-- a right condition gets no finding
assert(#select(2, kinds(good, "gradient")):diagnosis() == 0, "no finding for a right condition")
print("lua_derive: ok")
