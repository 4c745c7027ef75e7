-- The grader of lesson 101's exercise (clothcheck lesson 101 --check [DIR] [--hint K]): each
-- function against the toolkit's own rest data, on a triangle with det = 0.84 (so that a
-- missing 1/det shows as a scale) and on a second, mirrored one (det < 0). A wrong answer is
-- first checked the lesson's first way: w must not change when the triangle is moved
-- ("translation": x1 where x1 - x0 belongs); then named "sign", "scale", "relabelled" (the
-- coefficients of two vertices exchanged, or laid out in another order), "component-swap"
-- (w_u's for w_v's), or how far off.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"

local triangles = {{{0.0, 0.0}, {1.0, 0.2}, {0.3, 0.9}}, {{0.2, 0.1}, {-0.4, 1.3}, {1.1, 0.5}}}
local x = {0.1, -0.2, 0.05, 1.3, 0.1, 0.4, 0.2, 1.1, -0.3}

-- the toolkit's rest data of triangle uv: a condition that records what it is handed
local function right_dw(uv)
  local r = grade.triangle_rest(uv, x)
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

-- w = sum_m (dw/dx_m) x_m for the six coefficients d, (3)-(4)
local function w_from(d, y)
  local w = {}
  for s = 1, 3 do
    w[s] = d[1] * y[s] + d[2] * y[3 + s] + d[3] * y[6 + s]
    w[3 + s] = d[4] * y[s] + d[5] * y[3 + s] + d[6] * y[6 + s]
  end
  return w
end

-- the lesson's first check: moving the whole triangle by T changes neither w_u nor w_v
local T = {0.3, -1.2, 2.5}
local function moved(fix)
  return {kind = "translation", name = "the triangle is moved by t = (0.3, -1.2, 2.5)", fix = fix,
          move = function(args) local a = {table.unpack(args)}; a[1] = grade.translate(args[1], T); return a end}
end

-- the right numbers with vertices i and j exchanged (0-based), in a's, b's or both
local function exchanged(v, i, j, which)
  local r = {table.unpack(v)}
  for _, o in ipairs(which) do r[o + i + 1], r[o + j + 1] = v[o + j + 1], v[o + i + 1] end
  return r
end

-- part (1): the six coefficients, their invariance and the typical mistakes
local function check_dw(f, _, part)
  for k, uv in ipairs(triangles) do
    local what = "{a_0, a_1, a_2, b_0, b_1, b_2} (triangle " .. k .. ")"
    local got, want = f({{table.unpack(uv[1])}, {table.unpack(uv[2])}, {table.unpack(uv[3])}}), right_dw(uv)
    local ok, lines = grade.compare(got, want, what, part)
    local interleaved = {want[1], want[4], want[2], want[5], want[3], want[6]}
    if not ok and grade.compare(got, interleaved, "", part) then
      return false, {"relabelled: " .. what .. ": the right coefficients interleaved (a_0, b_0, a_1, b_1, ...); " ..
                     "the order is a_0, a_1, a_2, b_0, b_1, b_2"}
    end
    if not ok then
      if type(got) == "table" and #got == 6 then
        local function sum(i)   -- a sum that is 0 but for rounding, as 0
          local t, n = 0, 0
          for j = i, i + 2 do t, n = t + (tonumber(got[j]) or 0), math.max(n, math.abs(tonumber(got[j]) or 0)) end
          return math.abs(t) <= 1e-12 * n and 0 or t
        end
        local sa, sb = sum(1), sum(4)
        local inv_ok, inv = grade.invariance(function(y) return w_from(got, y) end, {x}, "w = sum_m (a_m, b_m) x_m", moved(
          string.format("a_0 + a_1 + a_2 = %.3g and b_0 + b_1 + b_2 = %.3g must be 0 -- x1 must enter (1) as x1 - x0, x2 as x2 - x0", sa, sb)))
        if not inv_ok then return false, inv end
      end
      return grade.classify(got, want, what, part, nil, {
        {{want[4], want[5], want[6], want[1], want[2], want[3]},
         "component-swap: your a_m are w_v's coefficients and your b_m w_u's: in (1) w_u's coefficients come " ..
         "from the v differences dv1, dv2 (w_u = ((x1 - x0) dv2 - (x2 - x0) dv1) / det), w_v's from du1, du2"},
        {exchanged(want, 1, 2, {0, 3}), "relabelled: a_1 and a_2 (and b_1 and b_2) exchanged: x1 - x0 goes with the " ..
         "edge (du1, dv1), x2 - x0 with (du2, dv2) -- the coefficient of x1 has dv2 in it"},
        {exchanged(want, 1, 2, {0}), "relabelled: a_1 and a_2 exchanged (your b_m are right): the coefficient of x1 " ..
         "in w_u has dv2 in it, the one of x2 dv1"},
        {exchanged(want, 1, 2, {3}), "relabelled: b_1 and b_2 exchanged (your a_m are right): the coefficient of x1 " ..
         "in w_v has du2 in it, the one of x2 du1"},
        {exchanged(want, 0, 1, {0, 3}), "relabelled: the coefficients of x0 and x1 exchanged"},
        {exchanged(want, 0, 2, {0, 3}), "relabelled: the coefficients of x0 and x2 exchanged"},
      })
    end
  end
  return true
end

-- part (2): w at x, its invariance and the typical mistakes
local function check_w(f, _, part)
  for k, uv in ipairs(triangles) do
    local what = "{w_u, w_v} (triangle " .. k .. ")"
    local got, want = f({table.unpack(x)}, uv), right_w(uv)
    local ok = grade.compare(got, want, what, part)
    if not ok then
      local inv_ok, inv = grade.invariance(f, {x, uv}, "w = (w_u, w_v)", moved(
        "x1 must enter as x1 - x0 and x2 as x2 - x0, (1): w depends on the triangle's shape, not on where it is"))
      if not inv_ok then return false, inv end
      local d = right_dw(uv)
      local y = {x[1], x[2], x[3], x[7], x[8], x[9], x[4], x[5], x[6]}
      return grade.classify(got, want, what, part, nil, {
        {{want[4], want[5], want[6], want[1], want[2], want[3]},
         "component-swap: your w_u is w_v and your w_v is w_u: w_u takes the a_m (dw[1..3]), w_v the b_m (dw[4..6])"},
        {w_from(d, y), "relabelled: x1 and x2 exchanged: x1 is x[4..6], x2 is x[7..9]"},
      }, nil, {nv = 2, of = "vector", names = {"w_u", "w_v"}})
    end
  end
  return true
end

return grade.run{lesson = "101_per_triangle", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "dw/dx_m, 001 (6)-(12)", fn = "dw", kind = "check", check = check_dw,
   hints = {"Write (3)-(4) as w_u = sum_m a_m x_m: which multiple of x0, x1 and x2 appears in w_u?",
            "(w_u w_v) = (x1 - x0, x2 - x0) M^-1 with M = [du1 du2; dv1 dv2] and det = du1 dv2 - du2 dv1.",
            "Check your numbers by the lesson's two checks: a_0 + a_1 + a_2 = 0 and b_0 + b_1 + b_2 = 0 (a moved " ..
            "triangle keeps its w), and at x_m = (u_m, v_m, 0) w_u must be (1, 0, 0), w_v (0, 1, 0). Which of " ..
            "x1 - x0 and x2 - x0 does the inverse of M pair with dv2?"}},
  {todo = 2, name = "w_u, w_v, 001 (3)-(4)", fn = "w", kind = "check", check = check_w,
   hints = {"w is linear in x: every component is sum_m (dw/dx_m) x_m.",
            "Use your M.dw(uv): w_u[s] = a_0 x0[s] + a_1 x1[s] + a_2 x2[s], s = x, y, z.",
            "Check it where you know the answer: x_m = (u_m, v_m, 0) must give w_u = (1, 0, 0) and w_v = (0, 1, 0), " ..
            "and moving every vertex by the same t must change neither. Which entries of x are x1's?"}},
}}
