-- Lesson 306 exercise: Discrete Shells' weight, Tamstorf & Grinspun's gradient of the hinge
-- angle, and the quadratic model's cotangent weights in Pritchard's labels.
--
-- Fill in the three functions below, then grade them:
--   clothcheck lesson 306 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 306 --check --hint 2   (a more specific hint for the first failing part)
--
-- x and x_rest are hinges, 12 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9],
-- x3 = x[10..12]; shared edge x1-x2, x0 in triangle A, x3 in triangle B:
--   nA = (x2 - x0) x (x1 - x0),  nB = (x1 - x3) x (x2 - x3),  e = x1 - x2     001 (25)-(27)

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

-- TODO (1): Discrete Shells' weight w = |e_rest| sqrt(3 / A_rest) of the rest hinge x_rest:
-- |e_rest| the shared edge's length, A_rest the two rest triangles' areas summed (Grinspun et
-- al. 2003: the hinge energy 3k |e|^2/A (theta - theta0)^2 / 2 is k/2 (w (theta - theta0))^2).
function M.weight(x_rest)
  -- your code here
  return nil
end

-- TODO (2): the gradient of theta (001 (30)), 12 numbers, in Tamstorf & Grinspun's form:
--   dtheta/dx0 = -nA^ / h0,  dtheta/dx3 = -nB^ / h3   (h0, h3: the wings' heights over the edge)
--   dtheta/dx1 = cA1/hA1 nA^ + cB1/hB1 nB^,  dtheta/dx2 = cA2/hA2 nA^ + cB2/hB2 nB^
-- with cA1 the cosine of triangle A's angle at x2 and hA1 the height of x1 above the side x0x2
-- (cA2: the angle at x1, hA2: x2 above x0x1; B likewise with x3).
function M.grad_theta(x)
  -- your code here
  return nil
end

-- TODO (3): the quadratic model's weights sqrt(3/A_rest) K_m, m = 0..3, in OUR labels. Bergou
-- et al. 2006 label the edge x0 x1 and the wings x2, x3, with c0j the cotangent of the angle
-- between their e0 = x1 - x0 and ej (e1 = x2 - x0, e2 = x3 - x0, e3 = x2 - x1, e4 = x3 - x1), and
-- K = (c03 + c04, c01 + c02, -c01 - c03, -c02 - c04). Map their labels to ours first.
-- M.cot(p, q, w) is the cotangent of the angle at p between p->q and p->w.
function M.quadratic_K(x_rest)
  -- your code here
  return nil
end

return M
