-- A typical wrong answer to lesson 303: the arccos gradient written axis-major.
-- Expected diagnosis: relabelled
--
-- -dc / |sin theta| is right, but the entries go into the list every x first (4 (s - 1) + m),
-- not vertex by vertex as grad_cos's.

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

-- (I - n^ n^T) v / |n|: the part of v across n^, over |n|
local function across(n, v)
  local l = math.sqrt(dot(n, n))
  local k = dot(n, v) / (l * l)
  return scale(sub(v, scale(n, k)), 1 / l)
end

-- (1): d cos = [(I - nA^ nA^T) nB^] . d nA / |nA| + [(I - nB^ nB^T) nA^] . d nB / |nB|
function M.grad_cos(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3))
  local uA, uB = scale(nA, 1 / math.sqrt(dot(nA, nA))), scale(nB, 1 / math.sqrt(dot(nB, nB)))
  local ga, gb = M.grad_dot_nA(x, across(nA, uB)), M.grad_dot_nB(x, across(nB, uA))
  local g = {}
  for m = 1, 4 do
    for s = 1, 3 do g[3 * (m - 1) + s] = ga[m][s] + gb[m][s] end
  end
  return g
end

-- (2): d arccos(c) = -dc / sqrt(1 - c^2) = -dc / |sin theta|: the sine of |theta|, never
-- negative, where Macri's -dc/sin theta flips sign with the fold
function M.grad_arccos(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3))
  local c = dot(nA, nB) / math.sqrt(dot(nA, nA) * dot(nB, nB))
  local g = M.grad_cos(x)
  local k = -1 / math.sqrt(1 - c * c)
  local out = {}
  for m = 1, 4 do
    for s = 1, 3 do out[4 * (s - 1) + m] = k * g[3 * (m - 1) + s] end
  end
  return out
end

return M
