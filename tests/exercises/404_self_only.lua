-- A typical wrong answer to lesson 404: diagnose audits the condition against itself only.
-- Expected diagnosis: self-only
--
-- A condition whose derivatives are those of its own value passes every check of itself, the
-- wrong sign, labels or factor included: without claims the audit has nothing to compare with.

local cc = require "clothcheck"
local M = {}

-- Jets: t[1] the value, t[1 + i] d/dx_i, t[13 + k] d2/dx_i dx_j for the k-th pair i <= j
-- (lesson 403's hyper-duals with all 12 directions at once). You need not change them.
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
  for k = 1, NP do
    local p = PAIRS[k]
    t[N + 1 + k] = a[1] * b[N + 1 + k] + b[1] * a[N + 1 + k] + a[p[1] + 1] * b[p[2] + 1] + a[p[2] + 1] * b[p[1] + 1]
  end
  return jet(t)
end
local function chain(a, f0, f1, f2)   -- f(a) from f, f', f'' at a's value
  local t = {f0}
  for i = 2, N + 1 do t[i] = f1 * a[i] end
  for k = 1, NP do local p = PAIRS[k]; t[N + 1 + k] = f1 * a[N + 1 + k] + f2 * a[p[1] + 1] * a[p[2] + 1] end
  return jet(t)
end
J.__div = function(a, b)
  if getmetatable(b) ~= J then return a * (1 / b) end
  return a * chain(b, 1 / b[1], -1 / b[1] ^ 2, 2 / b[1] ^ 3)
end
function M.sqrt(a)
  if getmetatable(a) ~= J then return math.sqrt(a) end
  local s = math.sqrt(a[1])
  return chain(a, s, 0.5 / s, -0.25 / (s * a[1]))
end
function M.atan2(y, x)   -- the angle of (x, y), as math.atan(y, x)
  if getmetatable(y) ~= J and getmetatable(x) ~= J then return math.atan(y, x) end
  y, x = lift(y), lift(x)
  local swap = math.abs(y[1]) > math.abs(x[1])
  local r = swap and x / y or y / x
  local d, s = 1 / (1 + r[1] ^ 2), swap and -1 or 1
  return chain(r, math.atan(y[1], x[1]), s * d, -s * 2 * r[1] * d * d)
end
-- f(x, rest), its gradient (12) and Hessian (144 numbers row by row; none when order == 1)
function M.derivatives(f, x, rest, order)
  NP = order == 1 and 0 or #PAIRS
  NT = 1 + N + NP
  local X = {}
  for i = 1, N do X[i] = const(x[i]); X[i][i + 1] = 1 end
  local v, g, H = lift(f(X, rest)), {}, {}
  for i = 1, N do g[i] = v[i + 1] end
  if NP > 0 then for i = 1, N do for j = 1, N do H[N * (i - 1) + j] = v[N + 1 + IDX[i][j]] end end end
  return v[1], g, H
end
-- a hinge condition with value f(x, rest) and f's own derivatives
function M.define(f, variant)
  return cc.define{condition = "bend", variant = variant, nv = 4, claim = "exact",
    value = function(x, rest) return f(x, rest) end,
    gradient = function(x, rest) return select(2, M.derivatives(f, x, rest, 1)) end,
    hessian = function(x, rest) return select(3, M.derivatives(f, x, rest)) end}
end

-- 3-vectors: vertex m (0..3) of x, difference, dot and cross products
function M.vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
function M.sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
function M.dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
function M.cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local vec, sub, dot, cross = M.vec, M.sub, M.dot, M.cross

-- (1): the hinge's angle theta, 001 (24)-(30), in the labels above:
--   nA = (x2 - x0) x (x1 - x0),  nB = (x1 - x3) x (x2 - x3),  e = x1 - x2,
--   theta = atan2((nA^ x nB^) . e^, nA^ . nB^)      (v^ = v / |v|)
-- Your condition C = theta - theta0 (M.condition below) claims to be bend/bridson.
function M.theta(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB, e = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
  local lA, lB, le = M.sqrt(dot(nA, nA)), M.sqrt(dot(nB, nB)), M.sqrt(dot(e, e))
  local c = dot(nA, nB) / (lA * lB)                 -- nA^ . nB^, (28)
  local s = dot(cross(nA, nB), e) / (lA * lB * le)  -- (nA^ x nB^) . e^, (29)
  return M.atan2(s, c)                              -- (30)
end

-- (2): the bending energy E = k/2 (theta(x) - theta0)^2, theta0 = rest.rest_angle, with
-- the angle function theta given (the grading passes the worked one). It claims to be
-- bend/bridson as an energy: cc.audit(..., {claims = ..., as_energy = true, k = k}).
function M.energy(theta, x, rest, k)
  local C = theta(x) - rest.rest_angle
  return k / 2 * C * C
end

-- your condition and your energy, as your simulator would define them
function M.condition() return M.define(function(x, rest) return M.theta(x) - rest.rest_angle end, "mine") end
function M.energy_condition(k) return M.define(function(x, rest) return M.energy(M.theta, x, rest, k) end, "mine-energy") end

-- (3): audit cond, a condition that claims to be bend/bridson, twice, each time with
-- samples = 5, sweeps = 0, edges = false (the grading runs it on four conditions): against
-- itself, and against its claim with reference = "claim" (the claim's rows only). Return:
--   self_ok  true when the audit against itself passes
--   kind     nil when the claim holds, else the kind of the first finding ("sign", "scale",
--            ...) that the audit's diagnosis gives for the claim's rows
local bridson = cc.condition("bend", "bridson")
function M.diagnose(cond)
  local self = cc.audit(cond, {samples = 5, sweeps = 0, edges = false})
  local claim = cc.audit(cond, {samples = 5, sweeps = 0, edges = false})
  local first = claim:diagnosis()[1]   -- {kind =, text =, reference = "claim", ...}
  return not self:failed(), claim:failed() and (first and first.kind or "unknown") or nil
end

return M
