-- Lesson 401, a typical wrong answer: d n^ = dn/|n|, the projector (I - n^ n^T) of (15) left out.
-- Expected diagnosis: projector
-- Lesson 401 exercise, worked: derive your own condition's gradient and Hessian, and let the audit
-- check them. The condition keeps a triangle's area: C = A(x)/a - 1, with A = |n|/2,
-- n = (x1 - x0) x (x2 - x0) and a the rest area (rest.area).
--
-- Grade it: clothcheck lesson 401 --check DIR (after clothcheck lesson 401 --solution DIR).
--
-- x is the triangle's positions, 9 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9].
-- Entry i = 3m + s (1-based: m = 0..2 the vertex, s = 1..3 the axis) is d/dx_{m,s}.

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
M.vec, M.sub, M.dot, M.cross = vec, sub, dot, cross
local AXIS = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

-- n, |n|, n^ and dn/dx_{m,s} = e_s x q_m with q = {x1 - x2, x2 - x0, x0 - x1} (as 001 (31), (34))
function M.parts(x)
  local x0, x1, x2 = vec(x, 0), vec(x, 1), vec(x, 2)
  local n = cross(sub(x1, x0), sub(x2, x0))
  local ln = math.sqrt(dot(n, n))
  local q = {sub(x1, x2), sub(x2, x0), sub(x0, x1)}
  local dn = {}
  for m = 1, 3 do for s = 1, 3 do dn[3 * (m - 1) + s] = cross(AXIS[s], q[m]) end end
  return n, ln, {n[1] / ln, n[2] / ln, n[3] / ln}, dn
end

-- (1): dC/dx_{m,s}, the 9 numbers. d|n| = n^ . dn.
function M.gradient(x, rest)
  local _, _, nh, dn = M.parts(x)
  local g = {}
  for i = 1, 9 do g[i] = dot(nh, dn[i]) / (2 * rest.area) end
  return g
end

-- (2): d2C/dx_i dx_j, the 81 numbers row by row (i, j = 1..9). d n^ = (I - n^ n^T) dn / |n|
-- (the pattern of 001 (15)), and dq_m/dx_n = k_mn I with k = {{0,1,-1},{-1,0,1},{1,-1,0}}.
local K = {{0, 1, -1}, {-1, 0, 1}, {1, -1, 0}}
function M.hessian(x, rest)
  local _, ln, nh, dn = M.parts(x)
  local H = {}
  for i = 1, 9 do
    local m, s = (i - 1) // 3 + 1, (i - 1) % 3 + 1
    for j = 1, 9 do
      local n2, t = (j - 1) // 3 + 1, (j - 1) % 3 + 1
      -- dn_i . (I - n^ n^T) dn_j / |n|: the projector keeps the part of dn_j across n^
      local proj = dot(dn[i], dn[j]) / ln
      -- n^ . d(dn_i)/dx_j = n^ . (e_s x k_mn e_t)
      local second = K[m][n2] * dot(nh, cross(AXIS[s], AXIS[t]))
      H[9 * (i - 1) + j] = (proj + second) / (2 * rest.area)
    end
  end
  return H
end

return M
