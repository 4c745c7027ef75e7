-- The grader of lesson 401's exercise (clothcheck lesson 401 --check [DIR] [--hint K]): the
-- gradient against finite differences of C = A/a - 1, the Hessian against finite differences
-- of the right gradient, each with the audit's diagnosis.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"

local vec, sub, dot, cross = grade.vec, grade.sub, grade.dot, grade.cross

-- C = |n|/(2a) - 1
local function area(x, rest)
  local n = cross(sub(vec(x, 1), vec(x, 0)), sub(vec(x, 2), vec(x, 0)))
  return math.sqrt(dot(n, n)) / (2 * rest.area) - 1
end

-- dC/dx_{m,s} = n^ . (e_s x q_m) / (2a), the gradient the Hessian part is graded against
local function area_gradient(x, rest)
  local x0, x1, x2 = vec(x, 0), vec(x, 1), vec(x, 2)
  local n = cross(sub(x1, x0), sub(x2, x0))
  local ln = math.sqrt(dot(n, n))
  local q, g = {sub(x1, x2), sub(x2, x0), sub(x0, x1)}, {}
  local axis = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
  for m = 1, 3 do
    for s = 1, 3 do g[3 * (m - 1) + s] = dot(n, cross(axis[s], q[m])) / ln / (2 * rest.area) end
  end
  return g
end

return grade.run{lesson = "401_your_own_condition", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "dC/dx", fn = "gradient", nv = 3, value = area,
   hints = {"C depends on x through |n| only: dC = d|n| / (2a).",
            "d|n| = n^ . dn, and M.parts gives dn[i] = dn/dx_{m,s} for i = 3m + s.",
            "Check the factor: A = |n|/2, so C = |n|/(2a) - 1. The diagnosis' scale factor tells you which one is off."}},
  {todo = 2, name = "d2C/dxdx", fn = "hessian", kind = "hessian", nv = 3, value = area, gradient = area_gradient,
   hints = {"Differentiate g_i = n^ . dn_i / (2a) once more: both n^ and dn_i depend on x.",
            "d n^/dx_j = (I - n^ n^T) dn_j / |n|, and d(dn_i)/dx_j = e_s x (k_mn e_t) for i = (m,s), j = (n,t).",
            "Check the two terms: is the first projected (n^ only turns, so its derivative has no part along n^)? The " ..
            "second comes from d(dn_i)/dx_j, which is constant because n is bilinear in the edges."}},
}}
