-- Lesson 303 exercise: the true derivative of cos theta, and the gradient of Macri's own
-- value arccos(nA^.nB^) = |theta| done right.
--
-- Fill in the two functions below, then grade them:
--   clothcheck lesson 303 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 303 --check --hint 2   (a more specific hint for the first failing part)
--
-- x is the hinge, 12 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9], x3 = x[10..12];
-- shared edge x1-x2, x0 in triangle A, x3 in triangle B:
--   nA = (x2 - x0) x (x1 - x0),  nB = (x1 - x3) x (x2 - x3)     001 (25), (26)
-- Each function returns 12 numbers: vertex 0 x, y, z, then vertex 1, ...

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function scale(a, k) return {a[1] * k, a[2] * k, a[3] * k} end
M.vec, M.sub, M.dot, M.cross, M.scale = vec, sub, dot, cross, scale

-- The gradient of v . nA over x0..x3 for a fixed vector v: d(a x b) = da x b + a x db and
-- v . (p x q) = p . (q x v) give d(v . nA)/dx2 = (x1 - x0) x v, /dx1 = v x (x2 - x0),
-- /dx0 = minus their sum, /dx3 = 0. Returns four 3-vectors.
function M.grad_dot_nA(x, v)
  local x0, x1, x2 = vec(x, 0), vec(x, 1), vec(x, 2)
  local g2, g1 = cross(sub(x1, x0), v), cross(v, sub(x2, x0))
  return {scale(sub(g1, scale(g2, -1)), -1), g1, g2, {0, 0, 0}}
end

-- The same for v . nB, nB = (x1 - x3) x (x2 - x3)
function M.grad_dot_nB(x, v)
  local x1, x2, x3 = vec(x, 1), vec(x, 2), vec(x, 3)
  local g1, g2 = cross(sub(x2, x3), v), cross(v, sub(x1, x3))
  return {{0, 0, 0}, g1, g2, scale(sub(g1, scale(g2, -1)), -1)}
end

-- TODO (1): the true gradient of cos theta = nA^ . nB^ (28), lengths NOT frozen: the unit
-- normal moves as d nA^ = (I - nA^ nA^T) d nA / |nA| (lesson 103), so
--   d cos = [(I - nA^ nA^T) nB^] . d nA / |nA| + [(I - nB^ nB^T) nA^] . d nB / |nB|.
-- Use M.grad_dot_nA / M.grad_dot_nB with the bracketed vectors divided by the lengths.
function M.grad_cos(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3))
  -- your code here
  return nil
end

-- TODO (2): the gradient of Macri's value C = arccos(nA^ . nB^) = |theta|, 12 numbers, right
-- for folds of either sign. (Macri writes -d cos / sin theta, 001 5.1: which sin?)
function M.grad_arccos(x)
  -- your code here
  return nil
end

return M
