-- Lesson 102: the stretch gradient by the chain rule, checked by finite differences
--
-- Shows:      how (14) follows from (13) by the chain rule; how to write a forward and a
--             central difference in plain Lua; and the "V" of the error against the step h:
--             truncation error falls like h (forward) or h^2 (central) until round-off,
--             which grows like eps/h, takes over.
-- Equations:  Pritchard 001 (3)-(4), (6)-(8), (13)-(14), (16); Section 4 (numeric derivatives).
-- Difficulty: 1 of 3
-- Run:        clothcheck lesson 102

local cc = require "clothcheck"

local stretch = cc.condition("stretch", "bw98")
local uv = { {0.0, 0.0}, {1.0, 0.2}, {0.3, 0.9} }
local opts = { uv = uv, area_power = 0.75, bu = 1, bv = 1 }     -- alpha = a^(3/4), 001 (13)
local x = { 0.1, -0.2, 0.05,   1.3, 0.1, 0.4,   0.2, 1.1, -0.3 } -- x0, x1, x2 flat: x[3m+s]

-- (u,v) quantities of lesson 101: det, area (1), dw/dx_m (6)-(8), (10)-(12)
local du1, dv1 = uv[2][1] - uv[1][1], uv[2][2] - uv[1][2]
local du2, dv2 = uv[3][1] - uv[1][1], uv[3][2] - uv[1][2]
local det = du1 * dv2 - du2 * dv1
local alpha = (math.abs(det) / 2) ^ 0.75
local dwu = { (dv1 - dv2) / det, dv2 / det, -dv1 / det }
local dwv = { (du2 - du1) / det, -du2 / det, du1 / det }

-- w = sum_m dw_m x_m: the same linear map as (3)-(4)
local function w_of(x, dw)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dw[m] * x[3 * (m - 1) + s] end
  end
  return w
end

-- The chain rule. C_u = alpha (|w_u| - b_u). The length |w| changes with w along w^ = w/|w|:
-- d|w| = w^ . dw. And w_u moves with x_{m,s} by dw_u/dx_m along axis s, (5)-(8). So
--   dC_u/dx_{m,s} = alpha * dwu_m * w^_{u,s}                                   (14)
local function gradient_14(x)
  local rows = {}
  for k, dw in ipairs({dwu, dwv}) do
    local w = w_of(x, dw)
    local len = math.sqrt(w[1]^2 + w[2]^2 + w[3]^2)
    local g = {}
    for m = 1, 3 do
      for s = 1, 3 do g[3 * (m - 1) + s] = alpha * dw[m] * w[s] / len end
    end
    rows[k] = g
  end
  return rows
end

-- the toolkit's value of C at x (two numbers, C_u and C_v)
local function C(x) return stretch:eval(x, opts).value end

-- finite differences of C along every coordinate: forward (001 Section 4) or central
local function difference(x, h, central)
  local rows = { {}, {} }
  local c0 = C(x)
  for i = 1, #x do
    local xp, xm = {table.unpack(x)}, {table.unpack(x)}
    xp[i] = xp[i] + h
    xm[i] = xm[i] - h
    local cp = C(xp)
    local cm = central and C(xm) or c0
    for k = 1, 2 do rows[k][i] = (cp[k] - cm[k]) / (central and 2 * h or h) end
  end
  return rows
end

-- largest |a - b| over both components, relative to the largest |b|
local function rel_error(a, b)
  local worst, scale = 0, 0
  for k = 1, 2 do
    for i = 1, #b[k] do
      worst = math.max(worst, math.abs(a[k][i] - b[k][i]))
      scale = math.max(scale, math.abs(b[k][i]))
    end
  end
  return worst / scale
end

local toolkit = stretch:eval(x, opts).gradient
local ours = gradient_14(x)
local chain_err = rel_error(ours, toolkit)
assert(chain_err < 1e-14, "(14) written in Lua should equal the toolkit's gradient")

print("Lesson 102: the stretch gradient (14) and the error of finite differences")
print(string.format("  (14) in Lua vs the toolkit's gradient: relative difference %.1e", chain_err))
print("  relative error of finite differences of C against (14), by step h:")
print("        h        forward     central")
local fwd, ctr, best_c, best_h = {}, {}, math.huge, nil
for e = 1, 12 do
  local h = 10.0 ^ (-e)
  fwd[e] = rel_error(difference(x, h, false), toolkit)
  ctr[e] = rel_error(difference(x, h, true), toolkit)
  if ctr[e] < best_c then best_c, best_h = ctr[e], h end
  print(string.format("    1e-%02d   %10.2e  %10.2e", e, fwd[e], ctr[e]))
end

-- observed order p from two steps ten apart: error ~ h^p, so p = log10(err(h) / err(h/10))
local order_fwd = math.log(fwd[2] / fwd[3], 10)
local order_ctr = math.log(ctr[2] / ctr[3], 10)
print(string.format("  observed order between h = 1e-2 and 1e-3: forward %.2f, central %.2f", order_fwd, order_ctr))
print(string.format("  best central step h = %.0e with error %.1e; at h = 1e-12 round-off gives %.1e",
                    best_h, best_c, ctr[12]))

local hs = {}
for e = 1, 12 do hs[e] = 10.0 ^ (-e) end
local drawn = cc.plot{dir = cc.outdir(), name = "v_curve", title = "finite differences of the stretch C against (14)",
  xlabel = "step h", ylabel = "largest relative error", logx = true, logy = true, key = "top center",
  series = {{title = "forward: slope 1, then round-off", x = hs, y = fwd, with = "linespoints"},
            {title = "central: slope 2, then round-off", x = hs, y = ctr, with = "linespoints"}}}
print(string.format("  plot: %s/v_curve.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))

assert(order_fwd > 0.8 and order_fwd < 1.2, "a forward difference is first order")
assert(order_ctr > 1.8 and order_ctr < 2.2, "a central difference is second order")
assert(best_c < 1e-9, "at its best step a central difference agrees with (14) to ~1e-10")
assert(ctr[12] > 100 * best_c, "round-off must make tiny steps worse again (the right arm of the V)")
assert(best_h >= 1e-7 and best_h <= 1e-3, "the best central step lies near eps^(1/3) ~ 6e-6")
print("All checks passed.")
