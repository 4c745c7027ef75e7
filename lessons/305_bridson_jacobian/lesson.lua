-- Lesson 305: Bridson's force Jacobian -- the product rule on F = k A sigma u, not symmetric
--
-- Shows:      Bridson's bending force F_i = k A sigma u_i (A = |e|^2/(|nA| + |nB|),
--             sigma = sin(theta/2) - sin(theta0/2), u_i = -dtheta/dx_i in Pritchard's sign) is
--             not the gradient of an energy. Its Jacobian, by the product rule,
--               dF_i/dx_m = k [ u_i (sigma dA/dx_m + A cos(theta/2)/2 dtheta/dx_m) + A sigma du_i/dx_m ]
--             is built here from dA (by hand), dtheta = -u and du = -d2theta (the exact bend
--             Hessian), and equals the toolkit's closed form. The first term is a rank-one
--             u (d(A sigma))^T: not symmetric, because u and d(A sigma) point different ways. At
--             rest (sigma = 0) only -k A cos(theta/2)/2 u u^T is left, symmetric; the asymmetry
--             grows with |theta - theta0|. A solver that needs a symmetric matrix (MPCG) uses
--             the symmetric part (J + J^T)/2, as the simulator does.
-- Equations:  004 (Bridson's force and d theta/dx_i = u_i); 002 "Force Magnitude", "Force
--             Directions"; 001 (30) and the appendix (A.8)-(A.13) for the exact d2theta.
-- Difficulty: 3 of 3
-- Run:        clothcheck lesson 305

local cc = require "clothcheck"

local exact = cc.condition("bend", "pritchard-exact")

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function scale(a, k) return {a[1] * k, a[2] * k, a[3] * k} end

-- the gradient of v . nA and of v . nB over x0..x3 for a fixed v (lesson 303): four 3-vectors
local function grad_dot_nA(x, v)
  local x0, x1, x2 = vec(x, 0), vec(x, 1), vec(x, 2)
  local g2, g1 = cross(sub(x1, x0), v), cross(v, sub(x2, x0))
  return {scale({g1[1] + g2[1], g1[2] + g2[2], g1[3] + g2[3]}, -1), g1, g2, {0, 0, 0}}
end
local function grad_dot_nB(x, v)
  local x1, x2, x3 = vec(x, 1), vec(x, 2), vec(x, 3)
  local g1, g2 = cross(sub(x2, x3), v), cross(v, sub(x1, x3))
  return {{0, 0, 0}, g1, g2, scale({g1[1] + g2[1], g1[2] + g2[2], g1[3] + g2[3]}, -1)}
end

-- A = |e|^2 / (|nA| + |nB|) and its gradient: d|e|^2 = 2 e . de (de = dx1 - dx2), d|n| = n^ . dn
local function area_term(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB, e = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
  local la, lb, e2 = math.sqrt(dot(nA, nA)), math.sqrt(dot(nB, nB)), dot(e, e)
  local s = la + lb
  local ga, gb = grad_dot_nA(x, scale(nA, 1 / la)), grad_dot_nB(x, scale(nB, 1 / lb))
  local g = {}
  for m = 1, 4 do
    for t = 1, 3 do
      local de2 = (m == 2 and 2 * e[t]) or (m == 3 and -2 * e[t]) or 0
      g[3 * (m - 1) + t] = de2 / s - e2 / (s * s) * (ga[m][t] + gb[m][t])
    end
  end
  return e2 / s, g
end

-- the force and its Jacobian (rows J[i][j] = dF_i/dx_j), assembled by the product rule
local function force_and_jacobian(x, theta0, k)
  local r = exact:eval(x, {})
  local th, dth, d2th = r.value[1], r.gradient[1], r.hessian[1]
  local A, dA = area_term(x)
  local sigma = math.sin(th / 2) - math.sin(theta0 / 2)
  local c2 = math.cos(th / 2) / 2
  local F, J = {}, {}
  for i = 1, 12 do
    local u = -dth[i]
    F[i], J[i] = k * A * sigma * u, {}
    for j = 1, 12 do
      J[i][j] = k * (u * (sigma * dA[j] + A * c2 * dth[j]) + A * sigma * -d2th[i][j])
    end
  end
  return F, J, th, A
end

local function rel(P, Q)
  local e, s = 0, 0
  for i = 1, 12 do for j = 1, 12 do e, s = math.max(e, math.abs(P[i][j] - Q[i][j])), math.max(s, math.abs(Q[i][j])) end end
  return e / s
end
local function asymmetry(J)
  local e, s = 0, 0
  for i = 1, 12 do for j = 1, 12 do e, s = math.max(e, math.abs(J[i][j] - J[j][i])), math.max(s, math.abs(J[i][j])) end end
  return e / s
end

print("Lesson 305: Bridson's force Jacobian")
local x = {-0.9, 0.15, 0.05,   0.05, -0.55, 0.02,   -0.02, 0.7, -0.04,   0.6, 0.3, 0.75}
local theta0, k = 0.3, 1.7
local F, J, th, A = force_and_jacobian(x, theta0, k)
local tk = cc.bridson_force(x, {rest = theta0, k = k})
local ef, ej = 0, rel(J, tk.jacobian)
for i = 1, 12 do ef = math.max(ef, math.abs(F[i] - tk.force[i])) end
print(string.format("  hinge at theta = %.4f, theta0 = %.1f, A = %.4f: product rule vs the toolkit's closed form: " ..
                    "force %.1e, Jacobian %.1e (relative)", th, theta0, A, ef, ej))
local asym = asymmetry(J)
print(string.format("  asymmetry |J - J^T| / |J| = %.3f", asym))

-- at rest: -k A cos(theta/2)/2 u u^T, symmetric
local Fr, Jr = force_and_jacobian(x, th, k)
local r = exact:eval(x, {})
local c2 = math.cos(th / 2) / 2
local worst_rest = 0
for i = 1, 12 do for j = 1, 12 do
  worst_rest = math.max(worst_rest, math.abs(Jr[i][j] + k * A * c2 * r.gradient[1][i] * r.gradient[1][j]))
end end
print(string.format("  at rest (theta0 = theta): force %.1e, J vs -k A cos(theta/2)/2 u u^T %.1e, asymmetry %.1e",
                    math.abs(Fr[1]) + math.abs(Fr[12]), worst_rest, asymmetry(Jr)))

-- the asymmetry against theta - theta0
local offs, asy = {}, {}
for deg = -90, 90, 10 do
  local _, Jd = force_and_jacobian(x, th - math.rad(deg), k)
  offs[#offs + 1], asy[#asy + 1] = deg, asymmetry(Jd)
end
local drawn = cc.plot{dir = cc.outdir(), name = "asymmetry", title = "Bridson's force Jacobian: asymmetry against theta - theta0",
  xlabel = "theta - theta0 (degrees)", ylabel = "|J - J^T| / |J| (largest entries)",
  series = {{title = "one hinge", x = offs, y = asy, with = "linespoints"}}}
print(string.format("  asymmetry at theta - theta0 = -90, -30, 0, 30, 90 deg: %.3f %.3f %.1e %.3f %.3f",
                    asy[1], asy[7], asy[10], asy[13], asy[19]))
print(string.format("  plot: %s/asymmetry.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))

assert(ef < 1e-14 and ej < 1e-12, "the product rule gives the toolkit's force and Jacobian")
assert(asym > 1e-2, "away from rest the Jacobian is not symmetric")
assert(worst_rest < 1e-14 and asymmetry(Jr) < 1e-14, "at rest it is -k A cos(theta/2)/2 u u^T")
assert(asy[10] < 1e-14 and asy[1] > asy[7] and asy[19] > asy[13], "the asymmetry grows with |theta - theta0|")
print("All checks passed.")
