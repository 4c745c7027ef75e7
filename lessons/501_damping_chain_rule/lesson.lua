-- Lesson 501: damping needs the whole chain rule, dC/dt = sum_m dC/dx_m . v_m
--
-- Shows:      on one bend element, the rate of change of C is the sum (58) over all its
--             particles, measured against a time difference of C along the motion. The
--             per-particle rates dC/dx_m . v_m that Pritchard first used are not dC/dt; their
--             damping forces drag on rigid translations and rotations and do not sum to zero,
--             so they push the cloth as a whole. The summed form does neither.
-- Equations:  Pritchard 001 Section 5.2 and (58); 003 Section 3.1 (the corrected C-dot);
--             damping force d = -k_d dC/dx C-dot (Baraff & Witkin's (11), as 003 quotes it).
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 501

local cc = require "clothcheck"

local bend = cc.condition("bend", "pritchard-exact")      -- exact gradient (lesson 302)
local kd = 1.0                                            -- damping stiffness

local x = { -0.9, 0.15, 0.05,   0.05, -0.55, 0.02,   -0.02, 0.7, -0.04,   0.6, 0.3, 0.75 }
local v = { 0.3, -0.1, 0.2,   -0.2, 0.05, 0.1,   0.1, 0.2, -0.3,   0.0, -0.4, 0.25 }

local function C(y) return bend:eval(y, {}).value[1] end
local function moved(y, w, t)
  local z = {}
  for i = 1, 12 do z[i] = y[i] + t * w[i] end
  return z
end

-- dC/dt along the motion x(t) = x + t v, by a central difference in time
local function dCdt(y, w)
  local tau = 1e-6
  return (C(moved(y, w, tau)) - C(moved(y, w, -tau))) / (2 * tau)
end

-- per-particle rates dC/dx_m . v_m, m = 0..3, and their sum (58)
local function rates(y, w)
  local g = bend:eval(y, {}).gradient[1]
  local per, sum = {}, 0
  for m = 1, 4 do
    per[m] = 0
    for s = 1, 3 do per[m] = per[m] + g[3 * (m - 1) + s] * w[3 * (m - 1) + s] end
    sum = sum + per[m]
  end
  return per, sum, g
end

-- damping forces: summed uses one C-dot for all particles, per-particle uses its own
local function damping(y, w)
  local per, sum, g = rates(y, w)
  local d_sum, d_per = {}, {}
  for i = 1, 12 do
    local m = (i - 1) // 3 + 1
    d_sum[i] = -kd * g[i] * sum
    d_per[i] = -kd * g[i] * per[m]
  end
  return d_sum, d_per
end

local function net(d)
  local f = {0, 0, 0}
  for i = 1, 12 do f[(i - 1) % 3 + 1] = f[(i - 1) % 3 + 1] + d[i] end
  return math.sqrt(f[1]^2 + f[2]^2 + f[3]^2)
end
local function size(d)
  local s = 0
  for i = 1, 12 do s = s + d[i]^2 end
  return math.sqrt(s)
end

print("Lesson 501: the chain rule for C-dot (58)")
local per, sum = rates(x, v)
local measured = dCdt(x, v)
print(string.format("  general motion: dC/dt measured %.8f; sum (58) %.8f", measured, sum))
print(string.format("  per-particle dC/dx_m . v_m: %.5f %.5f %.5f %.5f", per[1], per[2], per[3], per[4]))
assert(math.abs(sum - measured) < 1e-8, "(58) is dC/dt")
for m = 1, 4 do assert(math.abs(per[m] - measured) > 1e-3, "no single particle's rate is dC/dt") end

-- Rigid motions: a translation V, and a rotation w x x_m. Neither bends the hinge: dC/dt = 0.
local translate, rotate = {}, {}
local omega = { 0.3, -0.7, 0.5 }
for m = 0, 3 do
  local p = { x[3 * m + 1], x[3 * m + 2], x[3 * m + 3] }
  local r = { omega[2] * p[3] - omega[3] * p[2], omega[3] * p[1] - omega[1] * p[3], omega[1] * p[2] - omega[2] * p[1] }
  for s = 1, 3 do
    translate[3 * m + s] = ({ 0.0, 0.0, -1.0 })[s]   -- falling straight down
    rotate[3 * m + s] = r[s]
  end
end
local results = {}
for label, w in pairs({ translation = translate, rotation = rotate, general = v }) do
  local d_sum, d_per = damping(x, w)
  local _, s = rates(x, w)
  results[label] = { dCdt = dCdt(x, w), sum = s, size_sum = size(d_sum), size_per = size(d_per),
                     net_sum = net(d_sum), net_per = net(d_per) }
end

print("  motion        dC/dt      (58)      |d| summed  |d| per-particle  net force summed  per-particle")
for _, label in ipairs({ "translation", "rotation", "general" }) do
  local r = results[label]
  print(string.format("  %-11s  %9.2e  %9.2e   %9.2e   %9.2e         %9.2e         %9.2e", label,
                      r.dCdt, r.sum, r.size_sum, r.size_per, r.net_sum, r.net_per))
end

for _, label in ipairs({ "translation", "rotation" }) do
  local r = results[label]
  assert(math.abs(r.dCdt) < 1e-9 and math.abs(r.sum) < 1e-12, label .. " does not bend the hinge")
  assert(r.size_sum < 1e-12, "summed damping leaves a rigid " .. label .. " alone")
  assert(r.size_per > 1e-2, "per-particle damping drags on a rigid " .. label)
end
local g = results.general
assert(g.net_sum < 1e-14, "summed damping forces add up to zero (sum of dC/dx_m is zero)")
assert(g.net_per > 1e-2, "per-particle damping forces push the element as a whole")

-- both dissipate energy: power d . v = -k_d (58)^2 summed, -k_d sum_m rate_m^2 per particle
local d_sum, d_per = damping(x, v)
local p_sum, p_per = 0, 0
for i = 1, 12 do p_sum, p_per = p_sum + d_sum[i] * v[i], p_per + d_per[i] * v[i] end
assert(p_sum <= 0 and p_per <= 0, "damping never adds energy")
print(string.format("  power d . v (general motion): summed %.5f, per-particle %.5f (both <= 0)", p_sum, p_per))

-- the picture: a hinge falling rigidly at speed V: the damping force per-particle C-dot puts
-- on it (a drag that grows with V, from a model meant to damp bending only) and the summed one
local speeds, drag_sum, drag_per = {}, {}, {}
for k = 0, 20 do
  local V, w = 0.5 * k, {}
  for m = 0, 3 do w[3 * m + 1], w[3 * m + 2], w[3 * m + 3] = 0, 0, -V end
  local ds, dp = damping(x, w)
  speeds[#speeds + 1], drag_sum[#drag_sum + 1], drag_per[#drag_per + 1] = V, size(ds), size(dp)
end
local drawn = cc.plot{dir = cc.outdir(), name = "falling", title = "a hinge falling rigidly: the bend damping force on it",
  xlabel = "falling speed V", ylabel = "|d| (k_d = 1)", key = "top left",
  series = {{title = "per-particle C-dot: drags the falling hinge", x = speeds, y = drag_per, with = "linespoints"},
            {title = "C-dot summed (58): zero", x = speeds, y = drag_sum, with = "linespoints"}}}
print(string.format("  plot: %s/falling.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
