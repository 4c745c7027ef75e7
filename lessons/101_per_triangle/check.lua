-- The grader of lesson 101's exercise (clothcheck lesson 101 --check [DIR] [--hint K]): each
-- function against the toolkit's own rest data, on a triangle with det = 0.84 (so that a
-- missing 1/det shows as a scale) and on a second, mirrored one (det < 0).
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local triangles = {{{0.0, 0.0}, {1.0, 0.2}, {0.3, 0.9}}, {{0.2, 0.1}, {-0.4, 1.3}, {1.1, 0.5}}}
local x = {0.1, -0.2, 0.05, 1.3, 0.1, 0.4, 0.2, 1.1, -0.3}

-- the toolkit's rest data of triangle uv: a condition that records what it is handed
local function rest_of(uv)
  local seen
  local peek = cc.define{condition = "peek", nv = 3, ncomp = 1,
    value = function(_, rest) seen = rest; return {0} end,
    gradient = function() return {0, 0, 0, 0, 0, 0, 0, 0, 0} end,
    hessian = function() local H = {}; for i = 1, 81 do H[i] = 0 end; return H end}
  peek:eval(x, {uv = uv})
  return seen
end

local function right_dw(uv)
  local r = rest_of(uv)
  return {r.dwu[1], r.dwu[2], r.dwu[3], r.dwv[1], r.dwv[2], r.dwv[3]}
end

local function right_w(uv)
  local d, w = right_dw(uv), {}
  for s = 1, 3 do
    w[s] = d[1] * x[s] + d[2] * x[3 + s] + d[3] * x[6 + s]
    w[3 + s] = d[4] * x[s] + d[5] * x[3 + s] + d[6] * x[6 + s]
  end
  return w
end

-- a check part: f(args(uv)) against want(uv) on each triangle in turn
local function on_triangles(args, want, what)
  return function(f, _, part)
    for k, uv in ipairs(triangles) do
      local ok, lines = grade.compare(f(args(uv)), want(uv), what .. " (triangle " .. k .. ")", part)
      if not ok then return false, lines end
    end
    return true
  end
end

return grade.run{lesson = "101_per_triangle", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "dw/dx_m, 001 (6)-(12)", fn = "dw", kind = "check",
   check = on_triangles(function(uv) return uv end, right_dw, "{a_0, a_1, a_2, b_0, b_1, b_2}"),
   hints = {"Write (3)-(4) as w_u = sum_m a_m x_m: which multiple of x0, x1 and x2 appears in w_u?",
            "(w_u w_v) = (x1 - x0, x2 - x0) M^-1 with M = [du1 du2; dv1 dv2] and det = du1 dv2 - du2 dv1.",
            "a = {(dv1 - dv2)/det, dv2/det, -dv1/det}, b = {(du2 - du1)/det, -du2/det, du1/det}."}},
  {todo = 2, name = "w_u, w_v, 001 (3)-(4)", fn = "w", kind = "check",
   check = on_triangles(function(uv) return x, uv end, right_w, "{w_u, w_v}"),
   hints = {"w is linear in x: every component is sum_m (dw/dx_m) x_m.",
            "Use your M.dw(uv): w_u[s] = a_0 x0[s] + a_1 x1[s] + a_2 x2[s], s = x, y, z.",
            "x0[s] = x[s], x1[s] = x[3 + s], x2[s] = x[6 + s]; w_v the same with b."}},
}}
