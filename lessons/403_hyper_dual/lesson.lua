-- Lesson 403: exact derivatives with hyper-dual numbers, and why they need no step size
--
-- Shows:      a hyper-dual number a + b e1 + c e2 + d e1e2 (e1^2 = e2^2 = 0, e1e2 = e2e1 != 0)
--             carries a value, two first derivatives and a mixed second derivative through
--             every operation. Evaluating C at x + e1 e_i + e2 e_j gives dC/dx_i in the e1
--             part and d2C/dx_i dx_j in the e1e2 part -- exactly: no difference is taken, so
--             there is no step to choose and no round-off to cancel. The stretch condition
--             C_u (001 (13)) written once, for numbers and hyper-duals alike, gives its
--             gradient (14) and Hessian (15) to the last bit; central differences of the
--             gradient, at their best step, to 1e-10.
-- Equations:  001 (13)-(15); the project's exact references (src/math/cc_hd.h, checks/fd.c).
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 403

local cc = require "clothcheck"

-- Hyper-dual numbers: {a, b, c, d} = a + b e1 + c e2 + d e1e2.
local HD = {}
HD.__index = HD
local function hd(a, b, c, d) return setmetatable({a, b or 0, c or 0, d or 0}, HD) end
local function lift(v) return getmetatable(v) == HD and v or hd(v) end
HD.__add = function(p, q) p, q = lift(p), lift(q); return hd(p[1] + q[1], p[2] + q[2], p[3] + q[3], p[4] + q[4]) end
HD.__sub = function(p, q) p, q = lift(p), lift(q); return hd(p[1] - q[1], p[2] - q[2], p[3] - q[3], p[4] - q[4]) end
HD.__unm = function(p) return hd(-p[1], -p[2], -p[3], -p[4]) end
-- (a + b e1 + c e2 + d e1e2)(a' + b' e1 + c' e2 + d' e1e2): e1^2 = e2^2 = 0 drop b b' and c c'
HD.__mul = function(p, q)
  p, q = lift(p), lift(q)
  return hd(p[1] * q[1], p[1] * q[2] + p[2] * q[1], p[1] * q[3] + p[3] * q[1],
            p[1] * q[4] + p[2] * q[3] + p[3] * q[2] + p[4] * q[1])
end
-- a function f of a hyper-dual: f(a) + f'(a) (b e1 + c e2) + (f'(a) d + f''(a) b c) e1e2
local function apply(p, f0, f1, f2)
  return hd(f0, f1 * p[2], f1 * p[3], f1 * p[4] + f2 * p[2] * p[3])
end
local function sqrt(p)
  if getmetatable(p) ~= HD then return math.sqrt(p) end
  local s = math.sqrt(p[1])
  return apply(p, s, 0.5 / s, -0.25 / (s * p[1]))
end
HD.__div = function(p, q)
  q = lift(q)
  return p * apply(q, 1 / q[1], -1 / q[1] ^ 2, 2 / q[1] ^ 3)
end

-- C_u = alpha (|w_u| - b_u), w_u = sum_m dwu_m x_m (001 (3), (13)), for numbers or hyper-duals
local uv = {{0, 0}, {1, 0.2}, {0.3, 0.9}}
local du1, dv1, du2, dv2 = uv[2][1] - uv[1][1], uv[2][2] - uv[1][2], uv[3][1] - uv[1][1], uv[3][2] - uv[1][2]
local det = du1 * dv2 - du2 * dv1
local alpha = (math.abs(det) / 2) ^ 0.75
local dwu = {(dv1 - dv2) / det, dv2 / det, -dv1 / det}          -- (6)-(8)
local function stretch_u(x)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dwu[m] * x[3 * (m - 1) + s] end
  end
  return alpha * (sqrt(w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) - 1)
end

-- gradient and Hessian by hyper-dual evaluation: x + h1 e1 e_i + h2 e2 e_j; any h1, h2 > 0
local function hd_derivatives(f, x, h1, h2)
  local n, g, H = #x, {}, {}
  for i = 1, n do
    H[i] = {}
    for j = 1, n do
      local y = {}
      for k = 1, n do y[k] = hd(x[k], k == i and h1 or 0, k == j and h2 or 0) end
      local r = f(y)
      H[i][j] = r[4] / (h1 * h2)
      if j == 1 then g[i] = r[2] / h1 end
    end
  end
  return g, H
end

local x = {0.1, -0.2, 0.05,   1.3, 0.1, 0.4,   0.2, 1.1, -0.3}
local ref = cc.condition("stretch", "bw98"):eval(x, {uv = uv, area_power = 0.75})
local g_tk, H_tk = ref.gradient[1], ref.hessian[1]

-- largest difference of a gradient and a Hessian from the toolkit's, relative to their size
local function rel_err(g, H)
  local eg, sg, eh, sh = 0, 0, 0, 0
  for i = 1, 9 do
    eg, sg = math.max(eg, math.abs(g[i] - g_tk[i])), math.max(sg, math.abs(g_tk[i]))
    for j = 1, 9 do eh, sh = math.max(eh, math.abs(H[i][j] - H_tk[i][j])), math.max(sh, math.abs(H_tk[i][j])) end
  end
  return eg / sg, eh / sh
end

print("Lesson 403: exact derivatives with hyper-dual numbers (stretch C_u, 001 (13)-(15))")
local value = stretch_u(x)
assert(math.abs(value - ref.value[1]) < 1e-15, "the Lua C_u is the toolkit's")

-- the step does not matter: 1, 1e-20, 1e-200 and unequal steps all give the same numbers
local steps, worst_g, worst_h = {{1, 1}, {1e-20, 1e-20}, {1e-200, 1e-100}, {3, 1e-8}}, 0, 0
print("  hyper-dual steps h1, h2      gradient vs toolkit   Hessian vs toolkit")
for _, st in ipairs(steps) do
  local eg, eh = rel_err(hd_derivatives(stretch_u, x, st[1], st[2]))
  worst_g, worst_h = math.max(worst_g, eg), math.max(worst_h, eh)
  print(string.format("    %7.0e, %7.0e          %9.1e            %9.1e", st[1], st[2], eg, eh))
end

-- central differences of the toolkit's gradient for the Hessian, against the step
local hs, fd_err = {}, {}
for k = 2, 24 do
  local h = 10 ^ (-k / 2)
  local H = {}
  for i = 1, 9 do H[i] = {} end
  for j = 1, 9 do
    local xp, xm = {table.unpack(x)}, {table.unpack(x)}
    xp[j], xm[j] = xp[j] + h, xm[j] - h
    local gp = cc.condition("stretch", "bw98"):eval(xp, {uv = uv, area_power = 0.75}).gradient[1]
    local gm = cc.condition("stretch", "bw98"):eval(xm, {uv = uv, area_power = 0.75}).gradient[1]
    for i = 1, 9 do H[i][j] = (gp[i] - gm[i]) / (2 * h) end
  end
  local _, eh = rel_err(g_tk, H)
  hs[#hs + 1], fd_err[#fd_err + 1] = h, eh
end
local best, at = math.huge, 0
for i, e in ipairs(fd_err) do if e < best then best, at = e, hs[i] end end
print(string.format("  central differences of the gradient: best Hessian error %.1e at h = %.0e", best, at))

local hd_err = {}
for i, h in ipairs(hs) do hd_err[i] = math.max(select(2, rel_err(hd_derivatives(stretch_u, x, h, h))), 1e-17) end
local drawn = cc.plot{dir = cc.outdir(), name = "step", title = "Hessian of the stretch C_u: error against the step",
  xlabel = "step h", ylabel = "largest relative error vs (15)", logx = true, logy = true, key = "top center",
  series = {{title = "central differences of the gradient", x = hs, y = fd_err, with = "linespoints"},
            {title = "hyper-dual numbers", x = hs, y = hd_err, with = "linespoints"}}}
print(string.format("  plot: %s/step.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))

assert(worst_g < 1e-15 and worst_h < 1e-14, "hyper-duals give (14) and (15) to rounding, at any step")
assert(best > 1e-12 and best < 1e-8, "central differences bottom out near 1e-10")
print("All checks passed.")
