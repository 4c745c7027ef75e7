-- Lesson 103: the stretch Hessian and the projector (I - w^ w^T)
--
-- Shows:      how (15) follows from (14): the derivative of the unit vector w^ = w/|w| is
--             (I - w^ w^T)/|w|, so moving a vertex along w^ (pure lengthening) has zero
--             curvature and moving it across w^ (turning) has curvature 1/|w|. Checks (15)
--             against central differences of the gradient, and shows what the projector
--             means for the energy of a compressed triangle.
-- Equations:  Pritchard 001 (13)-(18); appendix (A.1) for the derivative of w^.
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 103

local cc = require "clothcheck"

local stretch = cc.condition("stretch", "bw98")
local uv = { {0.0, 0.0}, {1.0, 0.2}, {0.3, 0.9} }
local opts = { uv = uv, area_power = 0.75 }
local x = { 0.1, -0.2, 0.05,   1.3, 0.1, 0.4,   0.2, 1.1, -0.3 }

local du1, dv1 = uv[2][1] - uv[1][1], uv[2][2] - uv[1][2]
local du2, dv2 = uv[3][1] - uv[1][1], uv[3][2] - uv[1][2]
local det = du1 * dv2 - du2 * dv1
local alpha = (math.abs(det) / 2) ^ 0.75
local dwu = { (dv1 - dv2) / det, dv2 / det, -dv1 / det }        -- (6)-(8)
local dwv = { (du2 - du1) / det, -du2 / det, du1 / det }        -- (10)-(12)

local function w_of(x, dw)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dw[m] * x[3 * (m - 1) + s] end
  end
  return w
end

-- Differentiate (14), dC_u/dx_{m,s} = alpha dwu_m w^_{u,s}, once more. Only w^ depends on x:
--   d w^ / d w = (I - w^ w^T) / |w|          (a unit vector can only turn, not grow)
-- so  d2C_u/dx_{m,s} dx_{n,t} = alpha/|w_u| dwu_m dwu_n (delta_st - w^_s w^_t)       (15)
local function hessian_15(x)
  local out = {}
  for k, dw in ipairs({dwu, dwv}) do
    local w = w_of(x, dw)
    local len = math.sqrt(w[1]^2 + w[2]^2 + w[3]^2)
    local H = {}
    for m = 1, 3 do for s = 1, 3 do
      local i = 3 * (m - 1) + s
      H[i] = {}
      for n = 1, 3 do for t = 1, 3 do
        local P = ((s == t) and 1 or 0) - w[s] * w[t] / len^2
        H[i][3 * (n - 1) + t] = alpha / len * dw[m] * dw[n] * P
      end end
    end end
    out[k] = H
  end
  return out
end

local function max_abs_diff(A, B)
  local worst, scale = 0, 0
  for k = 1, 2 do for i = 1, 9 do for j = 1, 9 do
    worst = math.max(worst, math.abs(A[k][i][j] - B[k][i][j]))
    scale = math.max(scale, math.abs(B[k][i][j]))
  end end end
  return worst / scale
end

local toolkit = stretch:eval(x, opts).hessian
local ours = hessian_15(x)
local lua_err = max_abs_diff(ours, toolkit)
assert(lua_err < 1e-14, "(15) in Lua should equal the toolkit's Hessian")

-- central differences of the toolkit's gradient: column j of H is (g(x + h e_j) - g(x - h e_j)) / 2h
local h = 1e-5
local fd = { {}, {} }
for k = 1, 2 do for i = 1, 9 do fd[k][i] = {} end end
for j = 1, 9 do
  local xp, xm = {table.unpack(x)}, {table.unpack(x)}
  xp[j], xm[j] = xp[j] + h, xm[j] - h
  local gp, gm = stretch:eval(xp, opts).gradient, stretch:eval(xm, opts).gradient
  for k = 1, 2 do for i = 1, 9 do fd[k][i][j] = (gp[k][i] - gm[k][i]) / (2 * h) end end
end
local fd_err = max_abs_diff(fd, toolkit)
assert(fd_err < 1e-8, "(15) should agree with central differences of (14)")

local sym = 0
for k = 1, 2 do for i = 1, 9 do for j = 1, 9 do
  sym = math.max(sym, math.abs(toolkit[k][i][j] - toolkit[k][j][i]))
end end end
assert(sym < 1e-15, "(15) is symmetric (up to the order of rounding in a product)")

-- What the projector means. Move vertex x1 alone along a unit direction d by t; the second
-- difference (C(t) - 2 C(0) + C(-t)) / t^2 is the curvature d^T H d of C_u along d.
-- unit vectors along and across w_u at positions y (across lies in the x-y plane)
local function along_across(y)
  local w = w_of(y, dwu)
  local len = math.sqrt(w[1]^2 + w[2]^2 + w[3]^2)
  local a = { w[1] / len, w[2] / len, w[3] / len }
  local l2 = math.sqrt(a[1]^2 + a[2]^2)
  return a, { -a[2] / l2, a[1] / l2, 0 }, len
end

-- curvature of C_u when vertex x1 alone moves along d by t, at positions y
local function curvature(y, d, t)
  local function Cu(sign)
    local z = {table.unpack(y)}
    for s = 1, 3 do z[3 + s] = z[3 + s] + sign * t * d[s] end
    return stretch:eval(z, opts).value[1]
  end
  return (Cu(1) - 2 * Cu(0) + Cu(-1)) / t^2
end

local along, across, lu = along_across(x)
local k_along, k_across = curvature(x, along, 1e-4), curvature(x, across, 1e-4)
local predicted = alpha * dwu[2]^2 / lu                        -- (15) with d . w^ = 0
assert(math.abs(k_along) < 1e-6, "lengthening along w^ is linear: no curvature")
assert(math.abs(k_across - predicted) < 1e-6 * predicted, "turning w_u has curvature alpha dwu^2/|w|")

-- The energy E = 1/2 C_u^2 has curvature along `across` of C_u * (d^T H d), since the
-- gradient (14) has no component across w^. Squash the triangle in u (|w_u| < 1, C_u < 0)
-- and that curvature is negative: the energy Hessian of a compressed triangle is indefinite.
local squashed = { 0.1, -0.2, 0.05,   0.75, 0.05, 0.2,   0.2, 1.1, -0.3 }
local _, across_q, lq = along_across(squashed)
local Cq = stretch:eval(squashed, opts).value[1]
local energy_curv = Cq * curvature(squashed, across_q, 1e-4)
assert(lq < 1 and Cq < 0 and energy_curv < 0, "compressed: the energy curves downwards across w^")

print("Lesson 103: the stretch Hessian (15)")
print(string.format("  (15) in Lua vs the toolkit's Hessian: relative difference %.1e", lua_err))
print(string.format("  toolkit Hessian vs central differences of its gradient (h = 1e-5): %.1e", fd_err))
print(string.format("  largest asymmetry |H_ij - H_ji| = %.1e", sym))
print(string.format("  C_u along w^_u (vertex x1): curvature %.1e (zero: |w| grows linearly)", k_along))
print(string.format("  C_u across w^_u (vertex x1): curvature %.6f, (15) predicts alpha dwu_1^2/|w_u| = %.6f",
                    k_across, predicted))
print(string.format("  compressed triangle |w_u| = %.3f, C_u = %.4f: energy curvature across w^_u = %.4f < 0",
                    lq, Cq, energy_curv))

-- the picture: E = 1/2 C_u^2 as vertex x1 turns w_u (moves across w^_u by t), for the
-- stretched triangle (a valley: positive curvature) and the squashed one (a ridge)
local function energy_across(y, d)
  local ts, es = {}, {}
  local e0 = 0.5 * stretch:eval(y, opts).value[1] ^ 2
  for k = -20, 20 do
    local t, z = 0.015 * k, {table.unpack(y)}
    for s = 1, 3 do z[3 + s] = z[3 + s] + t * d[s] end
    ts[#ts + 1], es[#es + 1] = t, 0.5 * stretch:eval(z, opts).value[1] ^ 2 - e0
  end
  return ts, es
end
local t1, e1 = energy_across(x, across)
local t2, e2 = energy_across(squashed, across_q)
local drawn = cc.plot{dir = cc.outdir(), name = "energy_across", title = "E = C_u^2/2 as x1 moves across w_u by t",
  xlabel = "t", ylabel = "E(t) - E(0)", key = "top center",
  series = {{title = string.format("stretched, |w_u| = %.2f: curves up", lu), x = t1, y = e1, with = "lines"},
            {title = string.format("compressed, |w_u| = %.2f: curves down", lq), x = t2, y = e2, with = "lines"}}}
print(string.format("  plot: %s/energy_across.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
