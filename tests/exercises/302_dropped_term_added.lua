-- A typical wrong answer to lesson 302: the dropped term added to (54) instead of subtracted.
-- Expected diagnosis: direction
-- Expected step: theta
--
-- (54) - d theta = cos theta sin theta d ln|e|: adding it doubles the error, which lies along
-- the shared edge e at x1 and x2.

local cc = require "clothcheck"

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function len(a) return math.sqrt(dot(a, a)) end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function scale(a, k) return {a[1] * k, a[2] * k, a[3] * k} end
M.vec, M.sub, M.dot, M.len, M.cross, M.scale = vec, sub, dot, len, cross, scale

-- nA, nB, e of (25)-(27), unnormalised
function M.vectors(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  return cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
end

-- Pritchard's gradient (54), from the toolkit: 12 numbers
function M.gradient_54(x) return cc.condition("bend", "pritchard"):eval(x, {}).gradient[1] end

-- (1): each vector of y over its length at xf, then (28)-(30)
function M.frozen_theta(y, xf)
  local nA, nB, e = M.vectors(y)
  local fA, fB, fe = M.vectors(xf)
  nA, nB, e = scale(nA, 1 / len(fA)), scale(nB, 1 / len(fB)), scale(e, 1 / len(fe))
  return math.atan(dot(cross(nA, nB), e), dot(nA, nB))
end

-- (2): (54) - d theta = cos theta sin theta d ln|e|, d ln|e|/dx1 = e/|e|^2 = -d ln|e|/dx2;
-- the |nA|, |nB| parts scale sin and cos alike and cancel inside atan2
function M.exact_gradient(x)
  local g = M.gradient_54(x)
  local _, _, e = M.vectors(x)
  local th = M.frozen_theta(x, x)
  local k = math.cos(th) * math.sin(th) / dot(e, e)
  for s = 1, 3 do
    g[3 + s] = g[3 + s] + k * e[s]
    g[6 + s] = g[6 + s] - k * e[s]
  end
  return g
end

return M
