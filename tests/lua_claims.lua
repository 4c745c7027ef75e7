-- cc.audit with claims: a condition compared entry by entry with the variant it claims to be.
-- A condition that is consistently wrong (its derivatives agree with its own value) passes every
-- check of itself and fails only against its claim.
local cc = require "clothcheck"
local spring = cc.condition("spring", "linear")

-- C = L - |d| (the sign of the whole condition flipped), derivatives consistent with it
local function flipped(scale)
  return cc.define{condition = "spring", variant = "flipped", nv = 2,
    value = function(x, rest) return -scale * spring:eval(x, {rest = rest.rest_length}).value[1] end,
    gradient = function(x, rest)
      local g = spring:eval(x, {rest = rest.rest_length}).gradient[1]
      for i = 1, 6 do g[i] = -scale * g[i] end
      return g
    end,
    hessian = function(x, rest)
      local H = spring:eval(x, {rest = rest.rest_length}).hessian[1]
      local out = {}
      for i = 1, 6 do for j = 1, 6 do out[#out + 1] = -scale * H[i][j] end end
      return out
    end}
end

local function row(a, ref, q)
  for _, r in ipairs(a:rows()) do
    if r.reference == ref and r.quantity == q then return r end
  end
end

-- consistent with itself: no check of itself fails
local self = cc.audit(flipped(1), {samples = 30})
assert(not self:failed(), self:table())

-- against its claim: the value, the gradient and the Hessian fail, the gradient diagnosed a sign
local a = cc.audit(flipped(1), {samples = 30, claims = spring})
assert(a:failed())
for _, q in ipairs{"value", "gradient", "hessian"} do
  local r = row(a, "claim", q)
  assert(r and r.available and not r.pass and r.gates, q)
end
local found = false
for _, f in ipairs(a:diagnosis()) do
  if f.reference == "claim" and f.quantity == "gradient" and f.kind == "sign" then found = true end
end
assert(found, a:table())

-- the claim by name, and the right condition passes against it
local right = cc.audit(flipped(-1), {samples = 30, claims = "spring/linear"})
assert(not right:failed(), right:table())
assert(row(right, "claim", "value").pass and row(right, "claim", "hessian").pass)

-- a condition with no claim has no claim rows
assert(row(self, "claim", "value") == nil)

-- bad claims are refused
local ok, err = pcall(cc.audit, flipped(1), {claims = "bend/bridson"})
assert(not ok and err:find("vertices"), err)
ok, err = pcall(cc.audit, flipped(1), {claims = "spring/nope"})
assert(not ok and err:find("no such variant"), err)
ok, err = pcall(cc.audit, flipped(1), {claims = 3})
assert(not ok and err:find("registered condition"), err)
ok, err = pcall(cc.audit, flipped(1), {claims = spring, k = -1})
assert(not ok and err:find("k must be positive"), err)

-- the energy form: E = k/2 C^2 of the spring, with k = 3
local k = 3
local energy = cc.define{condition = "spring", variant = "energy", nv = 2,
  value = function(x, rest)
    local C = spring:eval(x, {rest = rest.rest_length}).value[1]
    return 0.5 * k * C * C
  end,
  gradient = function(x, rest)
    local r = spring:eval(x, {rest = rest.rest_length})
    local g = {}
    for i = 1, 6 do g[i] = k * r.value[1] * r.gradient[1][i] end
    return g
  end,
  hessian = function(x, rest)
    local r = spring:eval(x, {rest = rest.rest_length})
    local C, g, H, out = r.value[1], r.gradient[1], r.hessian[1], {}
    for i = 1, 6 do for j = 1, 6 do out[#out + 1] = k * (g[i] * g[j] + C * H[i][j]) end end
    return out
  end}
assert(not cc.audit(energy, {samples = 30, claims = spring, as_energy = true, k = k}):failed())
local wrongk = cc.audit(energy, {samples = 30, claims = spring, as_energy = true, k = 1})
assert(wrongk:failed() and not row(wrongk, "claim", "value").pass)
-- a claimed frozen-magnitude variant: compared with its own formulas (gating), and with the exact
-- derivatives of its value (reported only: what the exact angle would give)
local p = cc.condition("bend", "pritchard")
local pm = cc.define{condition = "bend", variant = "mine", nv = 4, claim = "frozen-magnitude",
  value = function(x, rest) return p:eval(x, {x_rest = rest.x_rest}).value[1] end,
  gradient = function(x, rest) return p:eval(x, {x_rest = rest.x_rest}).gradient[1] end,
  hessian = function(x, rest) return p:eval(x, {x_rest = rest.x_rest}).hessian[1] end}
local fa = cc.audit(pm, {samples = 20, claims = p, sweeps = 0})
assert(row(fa, "claim", "gradient").pass and row(fa, "claim", "gradient").gates)
local ce = row(fa, "claim-exact", "gradient")
assert(ce and ce.available and not ce.pass and not ce.gates and ce.max_rel_error > 0.1, fa:table())
assert(not fa:failed(), fa:table())
-- an exact claim has no claim-exact rows
assert(row(right, "claim-exact", "gradient") == nil or not row(right, "claim-exact", "gradient").available)
print("lua_claims: ok")
