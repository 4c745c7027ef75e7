-- Lesson 101: per-triangle quantities: (u,v) edges, area, w_u, w_v and their derivatives
--
-- Shows:      how a triangle's rest shape in (u,v) turns world positions x0, x1, x2 into
--             the two vectors w_u, w_v (the u and v axes as seen in the world), and why
--             their derivatives are constants that sum to zero.
-- Equations:  Pritchard 001 (1), (3)-(4), (6)-(12).
-- Difficulty: 1 of 3
-- Run:        clothcheck lesson 101
--             (or: build/clothcheck run lessons/101_per_triangle/lesson.lua)

local cc = require "clothcheck"

-- A triangle in (u,v): vertices 0, 1, 2 (Pritchard numbers them from 0; Lua arrays start at 1).
local uv = { {0.0, 0.0}, {1.0, 0.2}, {0.3, 0.9} }

-- (u,v) edges and the denominator of (3)-(12)
local du1, dv1 = uv[2][1] - uv[1][1], uv[2][2] - uv[1][2]
local du2, dv2 = uv[3][1] - uv[1][1], uv[3][2] - uv[1][2]
local det = du1 * dv2 - du2 * dv1
local area = math.abs(det) / 2                                   -- (1)

-- the constant derivatives dw/dx_m (a number times the identity), (6)-(8) and (10)-(12)
local dwu = { (dv1 - dv2) / det, dv2 / det, -dv1 / det }
local dwv = { (du2 - du1) / det, -du2 / det, du1 / det }

-- w_u and w_v of (3)-(4); x is a list of three points {x, y, z}
local function w_vectors(x)
  local wu, wv = {}, {}
  for s = 1, 3 do
    local e1, e2 = x[2][s] - x[1][s], x[3][s] - x[1][s]
    wu[s] = (e1 * dv2 - e2 * dv1) / det                          -- (3)
    wv[s] = (-e1 * du2 + e2 * du1) / det                         -- (4)
  end
  return wu, wv
end

local function norm(v) return math.sqrt(v[1]^2 + v[2]^2 + v[3]^2) end

-- Check 1: lay the triangle flat with x = (u, v, 0). Then the u axis is (1,0,0), v is (0,1,0).
local flat = { {uv[1][1], uv[1][2], 0}, {uv[2][1], uv[2][2], 0}, {uv[3][1], uv[3][2], 0} }
local wu, wv = w_vectors(flat)
local flat_err = math.max(math.abs(wu[1] - 1), math.abs(wu[2]), math.abs(wu[3]),
                          math.abs(wv[1]), math.abs(wv[2] - 1), math.abs(wv[3]))
assert(flat_err < 1e-14, "flat triangle: w_u, w_v should be the x and y axes")

-- Check 2: the derivative coefficients sum to zero (moving all three points together
-- moves nothing relative to the triangle, so w cannot change).
local sum_u, sum_v = dwu[1] + dwu[2] + dwu[3], dwv[1] + dwv[2] + dwv[3]
assert(math.abs(sum_u) < 1e-14 and math.abs(sum_v) < 1e-14, "dw/dx_m must sum to zero")

-- Check 3: w is linear in x, so a finite difference gives the derivative (6)-(12) with no
-- truncation error at all, for any step h. Take a bent, stretched triangle.
local x = { {0.1, -0.2, 0.05}, {1.3, 0.1, 0.4}, {0.2, 1.1, -0.3} }
local h = 0.37                       -- a deliberately large step
local worst_fd = 0
for m = 1, 3 do
  for s = 1, 3 do
    local moved = { {table.unpack(x[1])}, {table.unpack(x[2])}, {table.unpack(x[3])} }
    moved[m][s] = moved[m][s] + h
    local wu1, wv1 = w_vectors(moved)
    local wu0, wv0 = w_vectors(x)
    for r = 1, 3 do
      local expect = (r == s) and 1 or 0          -- dw/dx_{m,s} = coefficient * I_s
      worst_fd = math.max(worst_fd,
        math.abs((wu1[r] - wu0[r]) / h - dwu[m] * expect),
        math.abs((wv1[r] - wv0[r]) / h - dwv[m] * expect))
    end
  end
end
assert(worst_fd < 1e-12, "w is linear: any step must reproduce (6)-(12)")

-- Check 4: the toolkit computes the same numbers. Every condition written with cc.define is
-- handed the toolkit's rest data; a tiny condition that only records it lets us look.
local seen
local peek = cc.define{
  condition = "peek", nv = 3, ncomp = 1,
  value    = function(_, rest) seen = rest; return {0} end,
  gradient = function() return {0, 0, 0, 0, 0, 0, 0, 0, 0} end,
  hessian  = function() local H = {}; for i = 1, 81 do H[i] = 0 end; return H end,
}
peek:eval(x, {uv = uv})
local worst_rest = math.max(math.abs(seen.det - det), math.abs(seen.area - area))
for m = 1, 3 do
  worst_rest = math.max(worst_rest, math.abs(seen.dwu[m] - dwu[m]), math.abs(seen.dwv[m] - dwv[m]))
end
assert(worst_rest < 1e-15, "toolkit rest data should match (1), (6)-(12)")

-- Check 5: and the toolkit's stretch condition (13) is built on the same w_u, w_v.
local stretch = cc.condition("stretch", "bw98")
local r = stretch:eval(x, {uv = uv, area_power = 1})
local wu_x, wv_x = w_vectors(x)
local stretch_err = math.max(math.abs(r.value[1] - area * (norm(wu_x) - 1)),
                             math.abs(r.value[2] - area * (norm(wv_x) - 1)))
assert(stretch_err < 1e-14, "stretch (13) should be a (|w_u| - 1, |w_v| - 1)")

print("Lesson 101: per-triangle quantities")
print(string.format("  (u,v) edges du1=%.2f dv1=%.2f du2=%.2f dv2=%.2f, det=%.4f, area (1) = %.4f",
                    du1, dv1, du2, dv2, det, area))
print(string.format("  dw_u/dx_m (6)-(8)   = %8.4f %8.4f %8.4f   sum %.1e", dwu[1], dwu[2], dwu[3], sum_u))
print(string.format("  dw_v/dx_m (10)-(12) = %8.4f %8.4f %8.4f   sum %.1e", dwv[1], dwv[2], dwv[3], sum_v))
print(string.format("  flat x = (u,v,0): w_u = (%.3f, %.3f, %.3f), w_v = (%.3f, %.3f, %.3f), max error %.1e",
                    wu[1], wu[2], wu[3], wv[1], wv[2], wv[3], flat_err))
print(string.format("  bent triangle: |w_u| = %.4f, |w_v| = %.4f (stretched by these factors)",
                    norm(wu_x), norm(wv_x)))
print(string.format("  finite difference with h = %.2f vs (6)-(12): worst error %.1e (w is linear in x)", h, worst_fd))
print(string.format("  toolkit rest data vs this script: worst difference %.1e", worst_rest))
print(string.format("  toolkit stretch (13) vs a(|w| - 1) from this script: worst difference %.1e", stretch_err))

-- the picture: the rest triangle in (u,v) with the u and v directions, and the bent triangle
-- seen from above (x, y) with w_u, w_v -- where those directions went -- all drawn from the
-- centroid, at half length
local function outline(p) return {p[1][1], p[2][1], p[3][1], p[1][1]}, {p[1][2], p[2][2], p[3][2], p[1][2]} end
local function centroid(p, i) return (p[1][i] + p[2][i] + p[3][i]) / 3 end
local function arrow(p, d) local cx, cy = centroid(p, 1), centroid(p, 2) return {cx, cx + d[1] / 2}, {cy, cy + d[2] / 2} end
local ru, rv = outline(uv)
local xu, xv = outline(x)
local uu, uy = arrow(uv, {1, 0})
local vu, vy = arrow(uv, {0, 1})
local au, ay = arrow(x, wu_x)
local bu, by = arrow(x, wv_x)
local drawn = cc.plot{dir = cc.outdir(), name = "triangle", title = "a triangle at rest in (u,v) and bent in the world",
  layout = {1, 2}, panels = {
    {title = "rest: (u,v)", xlabel = "u", ylabel = "v", series = {
      {title = "triangle", x = ru, y = rv, with = "lines"},
      {title = "u direction / 2", x = uu, y = uy, with = "linespoints"},
      {title = "v direction / 2", x = vu, y = vy, with = "linespoints"}}},
    {title = "world, seen from above: (x,y)", xlabel = "x", ylabel = "y", series = {
      {title = "triangle", x = xu, y = xv, with = "lines"},
      {title = "w_u / 2, (3)", x = au, y = ay, with = "linespoints"},
      {title = "w_v / 2, (4)", x = bu, y = by, with = "linespoints"}}}}}
print(string.format("  plot: %s/triangle.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
