-- Lua-level test: the audit engine on conditions written in Lua. A correct condition passes;
-- each planted mistake fails at the entry where it was planted; errors name the student's line.
local cc = require "clothcheck"

local function norm(x) return math.sqrt((x[1]-x[4])^2 + (x[2]-x[5])^2 + (x[3]-x[6])^2) end

-- the spring C = |x0 - x1| - L with its exact gradient and Hessian; `plant` edits the Hessian
local function spring(variant, plant_grad, plant_hess)
  return cc.define{
    condition = "spring", variant = variant, nv = 2, ncomp = 1, claim = "exact",
    value = function(x, rest) return norm(x) - rest.rest_length end,
    gradient = function(x)
      local d, g = norm(x), {}
      for s = 1, 3 do g[s] = (x[s] - x[s+3]) / d; g[s+3] = -g[s] end
      if plant_grad then plant_grad(g) end
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
      if plant_hess then plant_hess(h) end
      return h
    end,
  }
end

local function row(a, reference, quantity)
  for _, r in ipairs(a:rows()) do
    if r.reference == reference and r.quantity == quantity then return r end
  end
  error("no row " .. reference .. " " .. quantity)
end

-- correct: passes, with the exact references honestly unavailable
local good = cc.audit(spring("good"), {samples = 60})
assert(not good:failed(), tostring(good))
assert(row(good, "fd-true", "gradient").pass and row(good, "fd-true", "hessian").pass)
assert(row(good, "exact", "gradient").available == false)
assert(row(good, "fd-true", "taylor").pass)
assert(tostring(good):find("holds its claim", 1, true))

-- a wrong sign in one Hessian entry: d2C/dx_{0,y} dx_{1,z} (Lua h[2][6]) -> k0 m0 s1 n1 t2
local sign = cc.audit(spring("sign", nil, function(h) h[2][6] = -h[2][6] end), {samples = 60})
assert(sign:failed())
local w = row(sign, "fd-true", "hessian").worst
assert(w.k == 0 and w.m == 0 and w.s == 1 and w.n == 1 and w.t == 2,
       ("worst at k%d m%d s%d n%d t%d"):format(w.k, w.m, w.s, w.n, w.t))
assert(not row(sign, "fd-true", "symmetry").pass)
assert(row(sign, "fd-true", "gradient").pass)

-- a missing factor 2 in the gradient's x1 block -> m1, and the Taylor gradient order drops
local half = cc.audit(spring("half", function(g) for s = 4, 6 do g[s] = 0.5 * g[s] end end), {samples = 60})
assert(half:failed())
local wg = row(half, "fd-true", "gradient").worst
assert(wg.m == 1, "gradient error located on vertex 1")
assert(not row(half, "fd-true", "translation").pass)

-- an error inside the student's function stops the audit with its file:line
local ok, msg = pcall(cc.audit, cc.define{nv = 2, value = function() return 0 end,
  gradient = function() error("oops in my gradient") end, hessian = function() return {} end})
assert(not ok and msg:find("lua_audit.lua:%d+: oops in my gradient"), msg)

-- registered conditions: the audit reproduces the bend claims (docs/bend.md)
local p = cc.audit(cc.condition("bend", "pritchard"), {samples = 50, edges = false})
assert(not p:failed(), "pritchard holds its frozen-magnitude claim")
assert(row(p, "exact-frozen", "gradient").max_rel_error < 1e-12)
assert(row(p, "exact", "gradient").max_rel_error > 1e-2, "and differs from the true derivative")
local json = p:json()
assert(json:find('"reference": "exact"', 1, true) and json:find('"max_rel_error"', 1, true))

-- an audit started inside a condition's own callback (reentrancy): the outer audit of a
-- correct spring still passes, and so does the inner one
local inner_runs = 0
local base = spring("nested")
local nested = cc.define{condition = "spring", variant = "audits-inside", nv = 2, ncomp = 1, claim = "exact",
  value = function(x, rest) return norm(x) - rest.rest_length end,
  gradient = function(x, rest)
    if inner_runs < 2 then
      inner_runs = inner_runs + 1
      assert(not cc.audit(base, {samples = 5, sweeps = 0}):failed(), "inner audit passes")
    end
    return base:eval(x, {rest = rest.rest_length}).gradient[1]
  end,
  hessian = function(x, rest) return base:eval(x, {rest = rest.rest_length}).hessian[1] end}
local outer = cc.audit(nested, {samples = 30})
assert(inner_runs == 2 and not outer:failed(), "an audit inside a callback leaves the outer one correct")
assert(row(outer, "fd-true", "hessian-vs-gradient").max_rel_error < 1e-7)

-- options: sweeps = 0 and quantities keep only the rows asked for
local few = cc.audit(spring("few"), {samples = 10, sweeps = 0, quantities = {"gradient", "taylor"}})
local kinds = {}
for _, r in ipairs(few:rows()) do kinds[r.quantity] = true end
assert(kinds.gradient and kinds.taylor and not kinds.hessian and not kinds.symmetry, "only the rows asked for")
local okq, msgq = pcall(cc.audit, spring("q"), {quantities = {"gradiant"}})
assert(not okq and msgq:find("unknown quantity 'gradiant'"), msgq)

-- cond:eval's want: the value alone, or with the gradient
local st = cc.condition("stretch", "bw98")
local tri = {0, 0, 0, 1, 0.1, 0, 0, 1.2, 0.3}
local only = st:eval(tri, {uv = {0, 0, 1, 0, 0, 1}, want = "value"})
assert(only.value and not only.gradient and not only.hessian)
local vg = st:eval(tri, {uv = {0, 0, 1, 0, 0, 1}, want = "gradient"})
assert(vg.gradient and not vg.hessian and vg.value[1] == only.value[1])
local okw, msgw = pcall(st.eval, st, tri, {uv = {0, 0, 1, 0, 0, 1}, want = "hessain"})
assert(not okw and msgw:find("want must be"), msgw)

-- off-rest for a condition whose rest shape the audit does not know: its zero set is found by
-- moving random elements onto C = 0
do
-- a triangle condition C = (|x1 - x0| - 1.3)^2 whose Hessian drops the term C'' that vanishes at rest
local function e(x) return {x[4] - x[1], x[5] - x[2], x[6] - x[3]} end
local function len(v) return math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2) end
local sq = cc.define{condition = "edge", variant = "gauss-newton", nv = 3,
  value = function(x) return (len(e(x)) - 1.3) ^ 2 end,
  gradient = function(x)
    local v = e(x); local l = len(v); local c = 2 * (l - 1.3) / l
    return {-c * v[1], -c * v[2], -c * v[3], c * v[1], c * v[2], c * v[3], 0, 0, 0}
  end,
  hessian = function(x)
    local v = e(x); local l = len(v); local H = {}
    for i = 1, 9 do for j = 1, 9 do
      local a, b = (i - 1) % 3 + 1, (j - 1) % 3 + 1
      local si = i <= 3 and -1 or (i <= 6 and 1 or 0)
      local sj = j <= 3 and -1 or (j <= 6 and 1 or 0)
      H[9 * (i - 1) + j] = 2 * si * sj * v[a] * v[b] / l ^ 2
    end end
    return H
  end}
local a = cc.audit(sq, {samples = 30, sweeps = 0})
local found = false
for _, f in ipairs(a:diagnosis()) do
  if f.kind == "off-rest" and f.quantity == "hessian" then found = f.text:find("found by moving elements onto it") end
end
assert(found, a:table())
end
-- a Lua condition whose gradient is NaN on one edge case: the audit's row "finite" fails and
-- names the element and the entry; the other rows leave that element out (no other kind)
do
  local nanny = cc.define{condition = "spring", variant = "nan-short", nv = 2, ncomp = 1, claim = "exact",
    value = function(x, rest) return norm(x) - rest.rest_length end,
    gradient = function(x)
      local n, g = norm(x), {}
      for s = 1, 3 do g[s] = (x[s] - x[s + 3]) / n; g[s + 3] = -g[s] end
      if n < 0.01 then g[2] = 0 / 0 end   -- the very short spring, edge case e0
      return g
    end,
    hessian = function(x)
      local n, d, H = norm(x), {x[1] - x[4], x[2] - x[5], x[3] - x[6]}, {}
      for a = 1, 3 do for b = 1, 3 do
        local h = ((a == b and 1 or 0) - d[a] * d[b] / (n * n)) / n
        H[(a - 1) * 6 + b], H[(a + 2) * 6 + b + 3] = h, h
        H[(a - 1) * 6 + b + 3], H[(a + 2) * 6 + b] = -h, -h
      end end
      return H
    end}
  local a = cc.audit(nanny, {samples = 20})
  assert(a:failed(), "a NaN never passes")
  local fin = row(a, "target", "finite")
  assert(fin and not fin.pass, a:table())
  local d = fin.diagnosis[1]
  assert(d.kind == "non-finite" and d.text:find("The gradient is NaN at edge case e0:short, entry 1 (vertex 0 y)", 1, true), d.text)
  for _, r in ipairs(a:rows()) do
    if r.quantity ~= "finite" and r.diagnosis[1] then error("another kind: " .. r.diagnosis[1].kind) end
  end
  -- evaluated on its own, the same condition is an error at that element, as every condition's NaN is
  local ok, err = pcall(nanny.eval, nanny, {0, 0, 0, 0.001, 0, 0}, {rest = 1})
  assert(not ok and tostring(err):find("numbers must be finite"), tostring(err))
end

print("lua_audit: all assertions passed")
