-- A typical wrong answer to lesson 305: the Jacobian's rows and columns laid out axis-major.
-- Expected diagnosis: relabelled
--
-- Entry (i, j) is right, but stored at row and column 4 (s - 1) + m (every x first) where
-- the layout is vertex by vertex, 3 (m - 1) + s.

local cc = require "clothcheck"

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function scale(a, k) return {a[1] * k, a[2] * k, a[3] * k} end
M.vec, M.sub, M.dot, M.cross, M.scale = vec, sub, dot, cross, scale

-- the gradient of v . nA (and of v . nB) over x0..x3 for a fixed vector v: four 3-vectors
-- (lesson 303): d(v . nA)/dx2 = (x1 - x0) x v, /dx1 = v x (x2 - x0), /dx0 = minus their sum
function M.grad_dot_nA(x, v)
  local x0, x1, x2 = vec(x, 0), vec(x, 1), vec(x, 2)
  local g2, g1 = cross(sub(x1, x0), v), cross(v, sub(x2, x0))
  return {scale({g1[1] + g2[1], g1[2] + g2[2], g1[3] + g2[3]}, -1), g1, g2, {0, 0, 0}}
end
function M.grad_dot_nB(x, v)
  local x1, x2, x3 = vec(x, 1), vec(x, 2), vec(x, 3)
  local g1, g2 = cross(sub(x2, x3), v), cross(v, sub(x1, x3))
  return {{0, 0, 0}, g1, g2, scale({g1[1] + g2[1], g1[2] + g2[2], g1[3] + g2[3]}, -1)}
end

-- theta (30), its gradient (12) and Hessian (rows H[i][j]), exact, from the toolkit
function M.theta(x)
  local r = cc.condition("bend", "pritchard-exact"):eval(x, {})
  return r.value[1], r.gradient[1], r.hessian[1]
end

-- A = |e|^2 / (|nA| + |nB|)
function M.A(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB, e = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
  return dot(e, e) / (math.sqrt(dot(nA, nA)) + math.sqrt(dot(nB, nB)))
end

-- (1): the quotient rule, dA = d|e|^2 / s - |e|^2 / s^2 (d|nA| + d|nB|), s = |nA| + |nB|
function M.grad_A(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB, e = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
  local la, lb, e2 = math.sqrt(dot(nA, nA)), math.sqrt(dot(nB, nB)), dot(e, e)
  local s = la + lb
  local ga, gb = M.grad_dot_nA(x, scale(nA, 1 / la)), M.grad_dot_nB(x, scale(nB, 1 / lb))
  local g = {}
  for m = 1, 4 do
    for t = 1, 3 do
      local de2 = (m == 2 and 2 * e[t]) or (m == 3 and -2 * e[t]) or 0
      g[3 * (m - 1) + t] = de2 / s - e2 / (s * s) * (ga[m][t] + gb[m][t])
    end
  end
  return g
end

-- (2): dF_i/dx_j = k [u_i (sigma dA_j + A cos(theta/2)/2 dtheta_j) + A sigma du_i/dx_j]: the
-- first term a rank-one u (d(A sigma))^T, not symmetric
function M.jacobian(x, theta0, k)
  local th, dth, d2th = M.theta(x)
  local A, dA = M.A(x), M.grad_A(x)
  local sigma, c2 = math.sin(th / 2) - math.sin(theta0 / 2), math.cos(th / 2) / 2
  local J = {}
  for i = 1, 12 do
    for j = 1, 12 do
      local function ax(r) return 4 * ((r - 1) % 3) + (r - 1) // 3 + 1 end
      J[12 * (ax(i) - 1) + ax(j)] = k * (-dth[i] * (sigma * dA[j] + A * c2 * dth[j]) - A * sigma * d2th[i][j])
    end
  end
  return J
end

return M
