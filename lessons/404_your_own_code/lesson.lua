-- Lesson 404: auditing your own code: consistently wrong passes every self-check, not its claim
--
-- Shows:      a student's bend condition, written once, with its gradient and Hessian taken
--             from that same code by forward-mode automatic differentiation (a "jet": the
--             value, the 12 first and the 78 second derivatives carried through every
--             operation) -- as the student of 004 derived their Jacobians from their force.
--             Whatever mistake the value makes, the derivatives make too: the angle measured
--             the other way round passes cc.audit(mine) (differences, Hessian against the
--             gradient, invariances, Taylor test) and fails only cc.audit(mine, {claims =
--             cc.condition("bend", "bridson")}), diagnosed "sign"; the hinge read with another
--             paper's labels is "relabelled", an energy without its stiffness k "scale".
-- Equations:  001 (24)-(30) (theta in clothcheck's labels); 002 "Force Directions" and 004
--             (bend/bridson, the claim); 004's numeric check; 001 Section 4.
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 404

local cc = require "clothcheck"

-- Jets: t[1] the value, t[1 + i] d/dx_i, t[13 + k] d2/dx_i dx_j for the k-th pair i <= j.
local N, PAIRS, IDX = 12, {}, {}
for i = 1, N do IDX[i] = {} end
for i = 1, N do for j = i, N do PAIRS[#PAIRS + 1] = {i, j}; IDX[i][j], IDX[j][i] = #PAIRS, #PAIRS end end
local NP, NT = #PAIRS, 1 + N + #PAIRS   -- pairs carried (0 while only the gradient is wanted)
local J = {}
local function jet(t) return setmetatable(t, J) end
local function const(c) local t = {c} for k = 2, NT do t[k] = 0 end return jet(t) end
local function lift(a) return getmetatable(a) == J and a or const(a) end
J.__add = function(a, b) a, b = lift(a), lift(b) local t = {} for k = 1, NT do t[k] = a[k] + b[k] end return jet(t) end
J.__unm = function(a) local t = {} for k = 1, NT do t[k] = -a[k] end return jet(t) end
J.__sub = function(a, b) return a + (-b) end
J.__mul = function(a, b)
  if getmetatable(a) ~= J then a, b = b, a end
  local t = {}
  if getmetatable(b) ~= J then for k = 1, NT do t[k] = a[k] * b end return jet(t) end
  t[1] = a[1] * b[1]
  for i = 2, N + 1 do t[i] = a[1] * b[i] + b[1] * a[i] end
  for k = 1, NP do   -- the product rule, twice
    local p = PAIRS[k]
    t[N + 1 + k] = a[1] * b[N + 1 + k] + b[1] * a[N + 1 + k] + a[p[1] + 1] * b[p[2] + 1] + a[p[2] + 1] * b[p[1] + 1]
  end
  return jet(t)
end
-- f(a) from f, f', f'' at a's value: the chain rule, twice
local function chain(a, f0, f1, f2)
  local t = {f0}
  for i = 2, N + 1 do t[i] = f1 * a[i] end
  for k = 1, NP do local p = PAIRS[k]; t[N + 1 + k] = f1 * a[N + 1 + k] + f2 * a[p[1] + 1] * a[p[2] + 1] end
  return jet(t)
end
J.__div = function(a, b)
  if getmetatable(b) ~= J then return a * (1 / b) end
  return a * chain(b, 1 / b[1], -1 / b[1] ^ 2, 2 / b[1] ^ 3)
end
local function sqrt(a)
  if getmetatable(a) ~= J then return math.sqrt(a) end
  local s = math.sqrt(a[1])
  return chain(a, s, 0.5 / s, -0.25 / (s * a[1]))
end
-- atan2: the value from math.atan, the derivatives from atan of the smaller ratio
local function atan2(y, x)
  if getmetatable(y) ~= J and getmetatable(x) ~= J then return math.atan(y, x) end
  y, x = lift(y), lift(x)
  local swap = math.abs(y[1]) > math.abs(x[1])
  local r = swap and x / y or y / x
  local d = 1 / (1 + r[1] ^ 2)
  local s = swap and -1 or 1
  return chain(r, math.atan(y[1], x[1]), s * d, -s * 2 * r[1] * d * d)
end
-- the value, gradient (12) and Hessian (144, row by row; order 1: none) of f at x, one pass of jets
local function derivatives(f, x, rest, order)
  NP = order == 1 and 0 or #PAIRS
  NT = 1 + N + NP
  local X = {}
  for i = 1, N do X[i] = const(x[i]); X[i][i + 1] = 1 end
  local v, g, H = lift(f(X, rest)), {}, {}
  for i = 1, N do g[i] = v[i + 1] end
  if NP > 0 then for i = 1, N do for j = 1, N do H[N * (i - 1) + j] = v[N + 1 + IDX[i][j]] end end end
  return v[1], g, H
end

-- The student's code: the angle of 001 (30) in clothcheck's labels -- wings x0 (triangle A)
-- and x3, shared edge x1-x2 -- with one of the mistakes students make.
local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function theta(x, mistake)
  local order = mistake == "relabelled" and {2, 0, 1, 3} or {0, 1, 2, 3}   -- shared edge x0-x1
  local x0, x1, x2, x3 = vec(x, order[1]), vec(x, order[2]), vec(x, order[3]), vec(x, order[4])
  local nA, nB, e = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
  local lA, lB, le = sqrt(dot(nA, nA)), sqrt(dot(nB, nB)), sqrt(dot(e, e))
  local c = dot(nA, nB) / (lA * lB)
  local s = dot(cross(nA, nB), e) / (lA * lB * le)
  if mistake == "sign" then s = -s end   -- the angle the other way round, as Bridson's and 004's
  return atan2(s, c)
end
local K = 5
local function value_of(mistake, energy)
  return function(x, rest)
    local C = theta(x, mistake) - rest.rest_angle
    if not energy then return C end
    return (mistake == "forgot-k" and 1 or K) / 2 * C * C   -- E = k/2 C^2, k left out or not
  end
end
local function mine(mistake, energy)
  local f = value_of(mistake, energy)
  return cc.define{condition = "bend", variant = mistake or "right", nv = 4, claim = "exact",
    value = function(x, rest) return f(x, rest) end,
    gradient = function(x, rest) return select(2, derivatives(f, x, rest, 1)) end,
    hessian = function(x, rest) return select(3, derivatives(f, x, rest)) end}
end

local bridson = cc.condition("bend", "bridson")
local function rows(a)   -- the rows that apply; the Taylor test's orders as the audit's table has them
  for _, r in ipairs(a:rows()) do
    local err = string.format("%9.2e", r.max_rel_error)
    if r.quantity == "taylor" then err = a:table():match("taylor%s+(orders [%d.]+ [%d.]+ [%d.]+)") end
    local verdict = r.pass and "PASS" or "FAIL"
    if r.available then print(string.format("    %-8s %-20s %s  %s", r.reference, r.quantity, err, verdict)) end
  end
end

print("Lesson 404: auditing your own code (a bend condition whose derivatives are its own)")
print("  (1) theta measured the other way round, audited against itself: cc.audit(mine)")
local signed = mine("sign")
local self = cc.audit(signed, {samples = 20, sweeps = 0})
rows(self)
print("      => " .. (self:failed() and "FAILS" or "passes every check of itself"))
print("  (2) the same against what it claims, claims = cc.condition(\"bend\", \"bridson\") (reference = \"claim\")")
local against = cc.audit(signed, {samples = 20, sweeps = 0, reference = "claim", claims = bridson})
rows(against)
local found = against:diagnosis()[1]
print(string.format("      => %s; diagnosis: %s", against:failed() and "FAILS its claim" or "holds", found.kind))
print("         " .. found.text)

print("  (3) the other mistakes, against the claim (claim rows only, 20 elements + edge cases)")
local function claim_audit(mistake, energy)
  return cc.audit(mine(mistake, energy), {samples = 20, sweeps = 0, reference = "claim", claims = bridson,
                                         as_energy = energy, k = K})
end
local relabelled, forgot, right, right_e = claim_audit("relabelled"), claim_audit("forgot-k", true),
                                           claim_audit(false), claim_audit(false, true)
for _, c in ipairs{{"hinge read with shared edge x0-x1", relabelled},
                   {"energy k/2 C^2 without k (k = 5)", forgot},
                   {"the right condition", right}, {"the right energy (as_energy, k = 5)", right_e}} do
  local g, d = c[2]:rows()[2], c[2]:diagnosis()[1]
  print(string.format("    %-37s gradient %9.2e  %s", c[1], g.max_rel_error, d and d.kind .. ": " .. d.text or "holds"))
end

-- The lesson's own small check, element by element: each mistake's gradient against central
-- differences of its own value, and against the claim's gradient (-u_i; as an energy k C dC).
math.randomseed(404)
local function rel(a, b)
  local e, n = 0, 0
  for i = 1, #a do e, n = math.max(e, math.abs(a[i] - b[i])), math.max(n, math.abs(b[i])) end
  return e / n
end
local names, self_err, claim_err, ids = {"sign", "relabelled", "forgot-k"}, {{}, {}, {}}, {{}, {}, {}}, {}
local worst_self, least_claim, rest = 0, math.huge, {rest_angle = 0.3}
for id = 1, 40 do
  local x, d, want = {}, {}, {}
  for i = 1, 12 do x[i] = 2 * math.random() - 1 end
  ids[id] = id
  local r = bridson:eval(x, {rest = rest.rest_angle})
  for k, m in ipairs(names) do
    local f = value_of(m, m == "forgot-k")
    local g = select(2, derivatives(f, x, rest, 1))
    for i = 1, 12 do
      local p, q = {table.unpack(x)}, {table.unpack(x)}
      p[i], q[i] = p[i] + 1e-6, q[i] - 1e-6
      d[i] = (f(p, rest) - f(q, rest)) / 2e-6
      want[i] = r.gradient[1][i] * (m == "forgot-k" and K * r.value[1] or 1)
    end
    self_err[k][id], claim_err[k][id] = rel(g, d), rel(g, want)
    worst_self, least_claim = math.max(worst_self, self_err[k][id]), math.min(least_claim, claim_err[k][id])
  end
end
print(string.format("  (4) 40 random hinges, each mistake: gradient against its own differences at most %.1e;", worst_self))
print(string.format("      against the claim at least %.2f", least_claim))

local series = {}
for k, m in ipairs(names) do
  series[#series + 1] = {title = m .. ": against its own differences", x = ids, y = self_err[k], with = "points"}
  series[#series + 1] = {title = m .. ": against the claim", x = ids, y = claim_err[k], with = "points"}
end
local drawn = cc.plot{dir = cc.outdir(), name = "two_checks", logy = true, key = "outside bottom center",
  title = "each mistaken condition's gradient, relative error on 40 hinges",
  xlabel = "hinge", ylabel = "relative error of the gradient", series = series}
print(string.format("  plot: %s/two_checks.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))

assert(not self:failed(), "a consistently wrong condition passes its own audit")
assert(against:failed() and found.kind == "sign", "the claim finds the sign")
assert(relabelled:failed() and relabelled:diagnosis()[1].kind == "relabelled", "the claim finds the labels")
local f = forgot:diagnosis()[1]
assert(forgot:failed() and f.kind == "scale" and math.abs(f.factor - 1 / K) < 1e-6, "the claim finds k missing")
assert(not right:failed() and not right_e:failed(), "the right condition holds its claim, as a condition and an energy")
assert(worst_self < 1e-8 and least_claim > 0.1, "self-checks see 1e-8 at most, the claim at least 0.1")
print("All checks passed.")
