-- Lesson 302: the constant-magnitude approximation and how to check it
--
-- Shows:      Pritchard's bend derivatives (40)-(57) treat |nA|, |nB|, |e| as constants. A
--             central difference of the true theta therefore disagrees with them; one of the
--             frozen-magnitude theta of 001 Section 4 (normalise the shifted vectors with the
--             unshifted lengths) agrees. What the approximation drops is exactly
--             cos(theta) sin(theta) d ln|e|: the |nA|, |nB| parts cancel inside atan2.
-- Equations:  Pritchard 001 (24)-(57), Section 4, Section 5.3; appendix (A.8)-(A.13).
-- Difficulty: 3 of 3
-- Run:        clothcheck lesson 302

local cc = require "clothcheck"

local pritchard = cc.condition("bend", "pritchard")         -- (40)-(45): frozen magnitudes
local exact = cc.condition("bend", "pritchard-exact")       -- (A.8)-(A.13): no approximation

local function vec(x, m) return { x[3 * m + 1], x[3 * m + 2], x[3 * m + 3] } end
local function sub(a, b) return { a[1] - b[1], a[2] - b[2], a[3] - b[3] } end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function len(a) return math.sqrt(dot(a, a)) end
local function cross(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end
local function scale(a, k) return { a[1] * k, a[2] * k, a[3] * k } end

-- nA, nB, e of (25)-(27) for flat positions x (12 numbers, x0..x3)
local function vectors(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  return cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
end

-- theta (30) with each vector divided by its length at positions xf. xf = x gives the true
-- theta; a fixed xf gives Section 4's frozen-magnitude theta.
local function theta(x, xf)
  local nA, nB, e = vectors(x)
  local fA, fB, fe = vectors(xf)
  nA, nB, e = scale(nA, 1 / len(fA)), scale(nB, 1 / len(fB)), scale(e, 1 / len(fe))
  return math.atan(dot(cross(nA, nB), e), dot(nA, nB))
end
local function true_theta(x) return theta(x, x) end

local function shifted(x, i, hi, j, hj)
  local y = {table.unpack(x)}
  y[i] = y[i] + hi
  if j then y[j] = y[j] + hj end
  return y
end

-- central difference gradient of f
local function fd_gradient(f, x, h)
  local g = {}
  for i = 1, 12 do g[i] = (f(shifted(x, i, h)) - f(shifted(x, i, -h))) / (2 * h) end
  return g
end

local function rel(a, b)
  local worst, sc = 0, 0
  for i = 1, #b do worst, sc = math.max(worst, math.abs(a[i] - b[i])), math.max(sc, math.abs(b[i])) end
  return worst / sc
end

-- a general hinge, folded about 50 degrees, triangles of different sizes
local x = { -0.9, 0.15, 0.05,   0.05, -0.55, 0.02,   -0.02, 0.7, -0.04,   0.6, 0.3, 0.75 }
local h = 1e-6
local g_pr = pritchard:eval(x, {}).gradient[1]
local g_ex = exact:eval(x, {}).gradient[1]
local fd_true = fd_gradient(true_theta, x, h)
local fd_frozen = fd_gradient(function(y) return theta(y, x) end, x, h)

local err_true = rel(g_pr, fd_true)      -- (54) against the true theta: disagrees
local err_frozen = rel(g_pr, fd_frozen)  -- (54) against the frozen theta: agrees
local err_exact = rel(g_ex, fd_true)     -- the appendix against the true theta: agrees
assert(err_true > 1e-2, "(54) is not the derivative of the true theta")
assert(err_frozen < 1e-8, "(54) is the derivative of the frozen-magnitude theta")
assert(err_exact < 1e-8, "the appendix gives the derivative of the true theta")

-- What is dropped. Freezing |n| keeps the part of dn along n^, which is n^ d ln|n|. Inside
-- atan2(sin, cos) the nA and nB parts scale sin and cos alike and cancel; e^ is only in sin,
-- so what is left is cos * (sin d ln|e|): (54) - exact = cos theta sin theta d ln|e|, where
-- d ln|e|/dx1 = e^/|e| and d ln|e|/dx2 = -e^/|e|.
local _, _, e = vectors(x)
local th = true_theta(x)
local k = math.cos(th) * math.sin(th) / dot(e, e)
local predicted = {}
for i = 1, 12 do predicted[i] = 0 end
for s = 1, 3 do predicted[3 + s], predicted[6 + s] = k * e[s], -k * e[s] end
local dropped = {}
for i = 1, 12 do dropped[i] = g_pr[i] - g_ex[i] end
local err_dropped = rel(dropped, predicted)
assert(err_dropped < 1e-12, "(54) - exact = cos sin d ln|e|")

-- The Hessian (57) is the second derivative of the frozen theta: second central differences
-- (f(+i +j) - f(+i -j) - f(-i +j) + f(-i -j)) / 4h^2, magnitudes frozen at x.
local H_pr, H_ex = pritchard:eval(x, {}).hessian[1], exact:eval(x, {}).hessian[1]
local hh, frozen = 1e-4, function(y) return theta(y, x) end
local worst_frozen, worst_exact, sc = 0, 0, 0
for i = 1, 12 do for j = 1, 12 do
  local d2 = (frozen(shifted(x, i, hh, j, hh)) - frozen(shifted(x, i, hh, j, -hh))
            - frozen(shifted(x, i, -hh, j, hh)) + frozen(shifted(x, i, -hh, j, -hh))) / (4 * hh * hh)
  worst_frozen = math.max(worst_frozen, math.abs(H_pr[i][j] - d2))
  worst_exact = math.max(worst_exact, math.abs(H_pr[i][j] - H_ex[i][j]))
  sc = math.max(sc, math.abs(H_ex[i][j]))
end end
assert(worst_frozen / sc < 1e-6, "(57) is the Hessian of the frozen theta")
assert(worst_exact / sc > 1e-2, "(57) is not the Hessian of the true theta")

print("Lesson 302: the constant-magnitude approximation (40)-(45)")
print(string.format("  hinge folded to theta = %.4f rad (%.1f deg)", th, math.deg(th)))
print(string.format("  (54) vs central difference of the true theta:    %.2e  (disagrees)", err_true))
print(string.format("  (54) vs central difference of the frozen theta:  %.2e  (agrees)", err_frozen))
print(string.format("  appendix vs central difference of the true theta: %.2e  (agrees)", err_exact))
print(string.format("  (54) - appendix vs cos sin d ln|e|:              %.2e", err_dropped))
print(string.format("  (57) vs second differences of the frozen theta:  %.2e; vs the appendix Hessian: %.2e",
                    worst_frozen / sc, worst_exact / sc))

-- How big is the dropped part as the hinge folds? Turn x3 about the edge and compare (54)
-- with the appendix, relative to the size of the true gradient.
print("  fold sweep: relative gradient error of (54) against the appendix, and |cos sin|")
local x1, x2 = vec(x, 1), vec(x, 2)
local axis = scale(sub(x1, x2), 1 / len(sub(x1, x2)))
local r0 = sub(vec(x, 3), x2)
local largest = 0
for _, deg in ipairs({-135, -90, -45, -20, 0, 10, 20, 45, 70, 90, 135}) do
  -- Rodrigues: rotate x3 - x2 about the edge by deg, relative to the current fold
  local a = math.rad(deg) - th
  local c, s = math.cos(a), math.sin(a)
  local kxr, kdr = cross(axis, r0), dot(axis, r0)
  local y = {table.unpack(x)}
  for t = 1, 3 do y[9 + t] = x2[t] + r0[t] * c + kxr[t] * s + axis[t] * kdr * (1 - c) end
  local ep = rel(pritchard:eval(y, {}).gradient[1], exact:eval(y, {}).gradient[1])
  largest = math.max(largest, ep)
  local ty = true_theta(y)
  print(string.format("    theta %5.0f deg   %.2e   %.3f", math.deg(ty), ep, math.abs(math.cos(ty) * math.sin(ty))))
  if deg == 0 or math.abs(deg) == 90 then assert(ep < 1e-12, "no error where cos sin = 0") end
end
assert(largest > 0.05, "away from 0 and 90 degrees the dropped term is several per cent")

-- the picture: the same sweep, finer: the error of (54) against the appendix and |cos sin|
local degs, errs, cs = {}, {}, {}
for deg = -170, 170, 5 do
  local a = math.rad(deg) - th
  local c, s = math.cos(a), math.sin(a)
  local kxr, kdr = cross(axis, r0), dot(axis, r0)
  local y = {table.unpack(x)}
  for t = 1, 3 do y[9 + t] = x2[t] + r0[t] * c + kxr[t] * s + axis[t] * kdr * (1 - c) end
  local ty = true_theta(y)
  degs[#degs + 1] = math.deg(ty)
  errs[#errs + 1] = rel(pritchard:eval(y, {}).gradient[1], exact:eval(y, {}).gradient[1])
  cs[#cs + 1] = math.abs(math.cos(ty) * math.sin(ty))
end
local drawn = cc.plot{dir = cc.outdir(), name = "sweep", title = "(54) against the exact gradient as the hinge folds",
  xlabel = "theta (degrees)", ylabel = "relative error; |cos theta sin theta|", key = "below",
  series = {{title = "relative error of (54)", x = degs, y = errs, with = "lines"},
            {title = "|cos theta sin theta|", x = degs, y = cs, with = "lines"}}}
print(string.format("  plot: %s/sweep.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
