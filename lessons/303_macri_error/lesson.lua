-- Lesson 303: Macri's bend derivative, and where each of its two formulas is wrong
--
-- Shows:      Macri's value arccos(nA^.nB^) = |theta| and his two gradient formulas,
--             -dcos/sin (used when |sin| > |cos|) and dsin/cos (otherwise), built from the
--             constant-magnitude dcos, dsin. Sweeping the fold angle shows: the gradient has
--             the wrong sign for theta < 0; each formula is off by a term in tan or cot theta;
--             the two never agree, so the gradient jumps at |theta| = 45 degrees; and the
--             Hessian is not symmetric. Pritchard's (54) and (57) have none of these faults.
-- Equations:  Pritchard 001 Section 5.1, (28)-(30), (46)-(49), (54), (57); 002 "Bend Forces -
--             Derivatives".
-- Difficulty: 3 of 3
-- Run:        clothcheck lesson 303

local cc = require "clothcheck"

local macri = cc.condition("bend", "macri")
local exact = cc.condition("bend", "pritchard-exact")   -- the true d theta (lesson 302)
local pritchard = cc.condition("bend", "pritchard")

local function vec(x, m) return { x[3 * m + 1], x[3 * m + 2], x[3 * m + 3] } end
local function sub(a, b) return { a[1] - b[1], a[2] - b[2], a[3] - b[3] } end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function len(a) return math.sqrt(dot(a, a)) end
local function cross(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end
local function scale(a, k) return { a[1] * k, a[2] * k, a[3] * k } end

-- cos theta and sin theta (28)-(29) with vector lengths frozen at xf (001 Section 4)
local function cos_sin(x, xf)
  local function vs(y)
    local x0, x1, x2, x3 = vec(y, 0), vec(y, 1), vec(y, 2), vec(y, 3)
    return cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
  end
  local nA, nB, e = vs(x)
  local fA, fB, fe = vs(xf)
  nA, nB, e = scale(nA, 1 / len(fA)), scale(nB, 1 / len(fB)), scale(e, 1 / len(fe))
  return dot(nA, nB), dot(cross(nA, nB), e)
end

-- Macri's two formulas, with dcos and dsin as central differences of the frozen cos and sin
local function macri_formulas(x)
  local c, s = cos_sin(x, x)
  local f1, f2, h = {}, {}, 1e-6
  for i = 1, 12 do
    local xp, xm = {table.unpack(x)}, {table.unpack(x)}
    xp[i], xm[i] = xp[i] + h, xm[i] - h
    local cp, sp = cos_sin(xp, x)
    local cm, sm = cos_sin(xm, x)
    local dc, ds = (cp - cm) / (2 * h), (sp - sm) / (2 * h)
    f1[i] = -dc / s          -- from d cos = -sin d theta
    f2[i] = ds / c           -- from d sin =  cos d theta
  end
  return f1, f2, c, s
end

-- max |a - b| relative to max |ref| (ref defaults to b)
local function rel(a, b, ref)
  ref = ref or b
  local worst, sc = 0, 0
  for i = 1, #b do worst, sc = math.max(worst, math.abs(a[i] - b[i])), math.max(sc, math.abs(ref[i])) end
  return worst / sc
end

-- the hinge of lesson 302, with x3 turned about the edge x1-x2 to the angle theta
local base = { -0.9, 0.15, 0.05,   0.05, -0.55, 0.02,   -0.02, 0.7, -0.04,   0.6, 0.3, 0.75 }
local base_theta = exact:eval(base, {}).value[1]
local function hinge_at(theta)
  local x1, x2 = vec(base, 1), vec(base, 2)
  local k = scale(sub(x1, x2), 1 / len(sub(x1, x2)))
  local r = sub(vec(base, 3), x2)
  local a = theta - base_theta
  local c, s = math.cos(a), math.sin(a)
  local kxr, kdr = cross(k, r), dot(k, r)
  local y = {table.unpack(base)}
  for t = 1, 3 do y[9 + t] = x2[t] + r[t] * c + kxr[t] * s + k[t] * kdr * (1 - c) end
  return y
end

print("Lesson 303: Macri's error (001 Section 5.1)")
print("   theta    formula    Macri vs d|theta|   Macri vs d theta   (54) vs d theta   formula1 vs formula2")
local rows = {}
for _, deg in ipairs({-150, -90, -60, -44, -30, -10, 10, 30, 44, 46, 60, 90, 150}) do
  local x = hinge_at(math.rad(deg))
  local r = macri:eval(x, {})
  local g_true = exact:eval(x, {}).gradient[1]
  local g_abs = {}
  for i = 1, 12 do g_abs[i] = (deg < 0 and -1 or 1) * g_true[i] end     -- d|theta|
  local f1, f2, c, s = macri_formulas(x)
  local by_cos = math.abs(s) > math.abs(c)
  local in_force = by_cos and f1 or f2
  -- the toolkit reproduces Macri: its gradient is the formula in force
  assert(rel(r.gradient[1], in_force) < 1e-7, "bend/macri is Macri's switched formula")
  assert(math.abs(r.value[1] - math.abs(math.rad(deg))) < 1e-12, "Macri's value is |theta|")
  local row = { deg = deg, vs_abs = rel(r.gradient[1], g_abs), vs_theta = rel(r.gradient[1], g_true),
                pr = rel(pritchard:eval(x, {}).gradient[1], g_true), split = rel(f1, f2, g_true) }
  rows[deg] = row
  print(string.format("   %5d    %s   %12.2e      %12.2e      %12.2e      %12.2e", deg,
                      by_cos and "-dcos/sin" or " dsin/cos", row.vs_abs, row.vs_theta, row.pr, row.split))
end

-- theta < 0: Macri's value is -theta but the formulas differentiate theta: at -90 degrees the
-- cot term vanishes and the gradient is exactly minus the derivative of its own value.
assert(math.abs(rows[-90].vs_abs - 2) < 1e-6, "at -90 deg the gradient points exactly the wrong way")
for deg, row in pairs(rows) do
  if deg < 0 then assert(row.vs_abs > 1, "theta < 0: wrong direction") end
end
-- theta = +90: -dcos/sin is exact there (its error term is cot theta times d ln|nA||nB|)
assert(rows[90].vs_abs < 1e-8, "at +90 deg the cos formula happens to be right")
-- everywhere else the formula in force is wrong by several per cent or more
for _, deg in ipairs({10, 30, 44, 46, 60, 150}) do
  assert(rows[deg].vs_abs > 0.02, "Macri's gradient is wrong at " .. deg .. " deg")
end
-- the two formulas never agree, so crossing |theta| = 45 degrees the gradient jumps
local closest = math.huge
for _, row in pairs(rows) do closest = math.min(closest, row.split) end
assert(closest > 0.05, "no changeover point where the formulas agree")
local jump = rel(macri:eval(hinge_at(math.rad(44.99)), {}).gradient[1],
                 macri:eval(hinge_at(math.rad(45.01)), {}).gradient[1])
local smooth = rel(exact:eval(hinge_at(math.rad(44.99)), {}).gradient[1],
                   exact:eval(hinge_at(math.rad(45.01)), {}).gradient[1])
assert(jump > 0.1 and smooth < 1e-3, "Macri jumps at 45 deg, the true gradient does not")

-- Why: the frozen dcos, dsin carry the dropped n^ d ln|n| parts of lesson 302, so
--   -dcos/sin = d theta - cot theta (d ln|nA| + d ln|nB|)
--    dsin/cos = d theta + tan theta (d ln|nA| + d ln|nB| + d ln|e|)
-- Check both at 30 degrees with central differences of the logarithms of the lengths.
local x30 = hinge_at(math.rad(30))
local f1, f2 = macri_formulas(x30)
local g30 = exact:eval(x30, {}).gradient[1]
local function log_lengths(y)
  local x0, x1, x2, x3 = vec(y, 0), vec(y, 1), vec(y, 2), vec(y, 3)
  return math.log(len(cross(sub(x2, x0), sub(x1, x0)))) + math.log(len(cross(sub(x1, x3), sub(x2, x3)))),
         math.log(len(sub(x1, x2)))
end
local pred1, pred2, t30 = {}, {}, math.rad(30)
for i = 1, 12 do
  local xp, xm = {table.unpack(x30)}, {table.unpack(x30)}
  xp[i], xm[i] = xp[i] + 1e-6, xm[i] - 1e-6
  local np, ep = log_lengths(xp)
  local nm, em = log_lengths(xm)
  local dn, de = (np - nm) / 2e-6, (ep - em) / 2e-6
  pred1[i] = g30[i] - dn / math.tan(t30)
  pred2[i] = g30[i] + math.tan(t30) * (dn + de)
end
local err1, err2 = rel(f1, pred1), rel(f2, pred2)
assert(err1 < 1e-7 and err2 < 1e-7, "each formula is off by exactly its tan or cot term")

-- Hessians: Macri's is not symmetric; (57) is, to round-off (001 5.1 worries that its
-- second derivative is not symmetric; as printed, (57) is).
local function asym(H)
  local worst, sc = 0, 0
  for i = 1, 12 do for j = 1, 12 do
    worst, sc = math.max(worst, math.abs(H[i][j] - H[j][i])), math.max(sc, math.abs(H[i][j]))
  end end
  return worst / sc
end
local x60 = hinge_at(math.rad(60))
local asym_m, asym_p = asym(macri:eval(x60, {}).hessian[1]), asym(pritchard:eval(x60, {}).hessian[1])
assert(asym_m > 1e-2 and asym_p < 1e-14, "Macri's Hessian is asymmetric, (57) is symmetric")

print(string.format("  at 30 deg: -dcos/sin vs d theta - cot(d ln|nA||nB|): %.1e; dsin/cos vs d theta + tan(d ln|nA||nB||e|): %.1e",
                    err1, err2))
print(string.format("  closest the two formulas come over the sweep: %.2e (relative)", closest))
print(string.format("  gradient change from 44.99 to 45.01 deg: Macri %.2e, true %.2e", jump, smooth))
print(string.format("  Hessian asymmetry max|H - H^T|/max|H| at 60 deg: Macri %.2e, (57) %.2e", asym_m, asym_p))

-- the picture: Macri's gradient against the derivative of his own value |theta|, and
-- Pritchard's (54) against the true d theta, as the hinge folds
local degs, em, ep = {}, {}, {}
for deg = -170, 170, 2 do
  if deg ~= 0 then
    local x = hinge_at(math.rad(deg))
    local g_true = exact:eval(x, {}).gradient[1]
    local g_abs = {}
    for i = 1, 12 do g_abs[i] = (deg < 0 and -1 or 1) * g_true[i] end
    degs[#degs + 1] = deg
    em[#em + 1] = rel(macri:eval(x, {}).gradient[1], g_abs)
    ep[#ep + 1] = rel(pritchard:eval(x, {}).gradient[1], g_true)
  end
end
local drawn = cc.plot{dir = cc.outdir(), name = "sweep", title = "relative gradient error as the hinge folds",
  xlabel = "theta (degrees)", ylabel = "relative error", key = "below",
  series = {{title = "Macri vs d|theta| (his own value)", x = degs, y = em, with = "lines"},
            {title = "Pritchard (54) vs d theta", x = degs, y = ep, with = "lines"}}}
print(string.format("  plot: %s/sweep.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
