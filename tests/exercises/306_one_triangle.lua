-- A typical wrong answer to lesson 306: the weight with one triangle's area.
-- Expected diagnosis: one-triangle
-- Expected step: C = w (theta - theta0)
--
-- A_rest taken as triangle A's area alone, where Discrete Shells sums the hinge's two triangles.

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function scale(a, k) return {a[1] * k, a[2] * k, a[3] * k} end
local function norm(a) return math.sqrt(dot(a, a)) end
M.vec, M.sub, M.dot, M.cross, M.scale, M.norm = vec, sub, dot, cross, scale, norm

-- the hinge's vectors, 001 (25)-(27)
function M.hinge(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  return x0, x1, x2, x3, cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
end

-- cot of the angle at p between p->q and p->w
function M.cot(p, q, w)
  local a, b = sub(q, p), sub(w, p)
  return dot(a, b) / norm(cross(a, b))
end

-- (1): w = |e_rest| sqrt(3 / A_rest), A_rest = the two rest triangles' areas summed
-- (each triangle's area is half the length of its normal)
function M.weight(x_rest)
  local _, _, _, _, nA, nB, e = M.hinge(x_rest)
  local area = 0.5 * norm(nA)
  return norm(e) * math.sqrt(3 / area)
end

-- (2): d theta/dx in Tamstorf & Grinspun's form: the wings move theta along their normals by
-- one over their height above the edge; the edge vertices x1, x2 by the cosines of the base
-- angles over the heights of x1, x2 above the opposite sides
function M.grad_theta(x)
  local x0, x1, x2, x3, nA, nB, e = M.hinge(x)
  local lA, lB, le = norm(nA), norm(nB), norm(e)
  local a, b = scale(nA, 1 / lA), scale(nB, 1 / lB)
  -- c/h = cos(angle) * |side| / |n| = (edge . side) / (|e| |n|)
  local gA1 = dot(e, sub(x0, x2)) / (le * lA)    -- angle of A at x2, height of x1 over x0x2
  local gA2 = -dot(e, sub(x0, x1)) / (le * lA)   -- angle of A at x1, height of x2 over x0x1
  local gB1 = dot(e, sub(x3, x2)) / (le * lB)
  local gB2 = -dot(e, sub(x3, x1)) / (le * lB)
  local g0 = scale(a, -le / lA)                  -- -nA^ / h0, h0 = |nA| / |e|
  local g3 = scale(b, -le / lB)
  local g1 = {gA1 * a[1] + gB1 * b[1], gA1 * a[2] + gB1 * b[2], gA1 * a[3] + gB1 * b[3]}
  local g2 = {gA2 * a[1] + gB2 * b[1], gA2 * a[2] + gB2 * b[2], gA2 * a[3] + gB2 * b[3]}
  return {g0[1], g0[2], g0[3], g1[1], g1[2], g1[3], g2[1], g2[2], g2[3], g3[1], g3[2], g3[3]}
end

-- (3): sqrt(3/A_rest) K_m in Pritchard's labels. Bergou et al. label the edge x0 x1 and the
-- wings x2, x3: their x0, x1, x2, x3 are our x2, x1, x0, x3, so their
-- K = (c03 + c04, c01 + c02, -c01 - c03, -c02 - c04) becomes
--   K_0 = -cot A@x1 - cot A@x2,  K_1 = cot A@x2 + cot B@x2,
--   K_2 = cot A@x1 + cot B@x1,   K_3 = -cot B@x1 - cot B@x2
function M.quadratic_K(x_rest)
  local x0, x1, x2, x3, nA, nB = M.hinge(x_rest)
  local w = math.sqrt(3 / (0.5 * (norm(nA) + norm(nB))))
  local cA1, cA2 = M.cot(x1, x0, x2), M.cot(x2, x0, x1)
  local cB1, cB2 = M.cot(x1, x3, x2), M.cot(x2, x3, x1)
  return {-w * (cA1 + cA2), w * (cA2 + cB2), w * (cA1 + cB1), -w * (cB1 + cB2)}
end

return M
