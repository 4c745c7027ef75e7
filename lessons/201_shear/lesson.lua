-- Lesson 201: shear, w_u . w_v (19) against the normalised w^_u . w^_v (A.5)
--
-- Shows:      the shear condition of Baraff & Witkin (19)-(23) is a cosine only while the
--             axes keep unit length; the appendix version (A.5)-(A.7) is a true cosine.
--             Both agree under pure shear; under stretch, (19) grows with the stretch and
--             also pushes on stretching directions, (A.5) does not. Both gradients are
--             checked by central differences.
-- Equations:  Pritchard 001 (19)-(23), appendix (A.1)-(A.2), (A.5)-(A.7).
-- Difficulty: 1 of 3
-- Run:        clothcheck lesson 201

local cc = require "clothcheck"

local bw98 = cc.condition("shear", "bw98")
local normalized = cc.condition("shear", "normalized")

-- With (u,v) = (0,0), (1,0), (0,1) we get w_u = x1 - x0 and w_v = x2 - x0 by (3)-(4):
-- we can place the two world axes directly. Area a = 1/2; area_power 1 gives alpha = 1/2.
local uv = { {0, 0}, {1, 0}, {0, 1} }
local opts = { uv = uv, area_power = 1 }
local alpha = 0.5

-- positions with w_u = lu (1, 0, 0) and w_v = lv (sin phi, cos phi, 0): the axes are
-- 90 - phi degrees apart, so the true cosine between them is sin phi.
local function triangle(phi, lu, lv)
  return { 0, 0, 0,   lu, 0, 0,   lv * math.sin(phi), lv * math.cos(phi), 0 }
end

local function C(cond, x) return cond:eval(x, opts).value[1] end

print("Lesson 201: shear conditions (19) and (A.5)")
print("  shear angle  true cos | axes of length 1    | axes stretched 1.5 x 1.2")
print("      phi               | (19)/a    (A.5)/a   | (19)/a    (A.5)/a")
for _, deg in ipairs({0, 10, 20, 30, 45, 60}) do
  local phi = math.rad(deg)
  local unit, str = triangle(phi, 1, 1), triangle(phi, 1.5, 1.2)
  local b1, n1 = C(bw98, unit) / alpha, C(normalized, unit) / alpha
  local b2, n2 = C(bw98, str) / alpha, C(normalized, str) / alpha
  print(string.format("    %4d deg   %7.4f | %7.4f   %7.4f   | %7.4f   %7.4f", deg, math.sin(phi), b1, n1, b2, n2))
  -- unit axes: both are the cosine of the angle between the axes
  assert(math.abs(b1 - math.sin(phi)) < 1e-14 and math.abs(n1 - math.sin(phi)) < 1e-14)
  -- stretched axes: (19) is multiplied by |w_u| |w_v| = 1.8, (A.5) still the cosine
  assert(math.abs(b2 - 1.8 * math.sin(phi)) < 1e-14 and math.abs(n2 - math.sin(phi)) < 1e-14)
end

-- Pure stretch and no shear: both are zero, whatever the lengths.
local plain = triangle(0, 1.5, 0.7)
assert(math.abs(C(bw98, plain)) < 1e-15 and math.abs(C(normalized, plain)) < 1e-15)

-- Central differences of both conditions' values against their gradients (21) and (A.6).
local function fd_error(cond, x)
  local g, h, worst, scale = cond:eval(x, opts).gradient[1], 1e-6, 0, 0
  for i = 1, 9 do
    local xp, xm = {table.unpack(x)}, {table.unpack(x)}
    xp[i], xm[i] = xp[i] + h, xm[i] - h
    local fd = (C(cond, xp) - C(cond, xm)) / (2 * h)
    worst, scale = math.max(worst, math.abs(fd - g[i])), math.max(scale, math.abs(g[i]))
  end
  return worst / scale
end
local x = { 0.1, -0.2, 0.05,   1.3, 0.1, 0.4,   0.2, 1.1, -0.3 }   -- a general triangle
local err_b, err_n = fd_error(bw98, x), fd_error(normalized, x)
assert(err_b < 1e-8 and err_n < 1e-8, "both gradients should match central differences")

-- (23): the Hessian of (19) is a number times I for every vertex pair (no s != t coupling).
local H, offdiag = bw98:eval(x, opts).hessian[1], 0
for i = 1, 9 do for j = 1, 9 do
  local s, t = (i - 1) % 3, (j - 1) % 3
  if s ~= t then offdiag = math.max(offdiag, math.abs(H[i][j])) end
end end
assert(offdiag == 0, "(23): d2C/dx_{m,s} dx_{n,t} = 0 for s ~= t")

-- Where they differ in force: stretch the sheared triangle along w_u by moving x1 along
-- (1,0,0). The directional derivative is gradient[x1] . (1,0,0) = gradient entry 4.
local sheared = triangle(math.rad(30), 1.5, 1.2)
local push_b = bw98:eval(sheared, opts).gradient[1][4]
local push_n = normalized:eval(sheared, opts).gradient[1][4]
-- (19) = alpha |w_u| |w_v| sin phi grows linearly with |w_u|: d/d|w_u| = alpha |w_v| sin phi
assert(math.abs(push_b - alpha * 1.2 * 0.5) < 1e-14, "(19) resists stretching of a sheared triangle")
assert(math.abs(push_n) < 1e-15, "(A.5) does not change when an axis is only lengthened")

print(string.format("  pure stretch, no shear: (19) = %.1e, (A.5) = %.1e", C(bw98, plain), C(normalized, plain)))
print(string.format("  gradients vs central differences (h = 1e-6): (21) %.1e, (A.6) %.1e", err_b, err_n))
print(string.format("  (23): largest off-diagonal (s ~= t) Hessian entry of (19): %.1e", offdiag))
print(string.format("  sheared 30 deg, stretched: dC/dx_{1,x} along w_u = %.4f for (19), %.1e for (A.5)",
                    push_b, push_n))

-- the picture: both conditions at a shear of 30 degrees as w_u is stretched from 0.5 to 2
local ls, cb, cn = {}, {}, {}
for k = 0, 30 do
  local lu = 0.5 + 0.05 * k
  local xs = triangle(math.rad(30), lu, 1)
  ls[#ls + 1], cb[#cb + 1], cn[#cn + 1] = lu, C(bw98, xs) / alpha, C(normalized, xs) / alpha
end
local drawn = cc.plot{dir = cc.outdir(), name = "stretch_in_shear", title = "shear 30 degrees, w_u stretched: C / alpha",
  xlabel = "|w_u|  (|w_v| = 1)", ylabel = "C / alpha", key = "top left",
  series = {{title = "(19): w_u . w_v, grows with the stretch", x = ls, y = cb, with = "lines"},
            {title = "(A.5): the cosine, stays sin 30 = 0.5", x = ls, y = cn, with = "lines"}}}
print(string.format("  plot: %s/stretch_in_shear.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
