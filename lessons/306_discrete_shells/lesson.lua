-- Lesson 306: Discrete Shells and the quadratic model -- weights that make bending mesh-independent
--
-- Shows:      Discrete Shells (Grinspun et al. 2003) weights each hinge's angle by
--             w = |e_rest| sqrt(3/A_rest): C = w (theta - theta0). Tamstorf & Grinspun (2013)
--             give theta's gradient and Hessian in closed form (heights, cosines, edge
--             normals); they agree with 001's appendix and with Bridson's directions to
--             round-off, checked here on random hinges. The quadratic model (Bergou et al.
--             2006) replaces the angle by sqrt(3/A) sum K_m x_m with cotangent weights K:
--             folding a flat rest hinge by phi gives |C| = w 2 sin(phi/2), the same to second
--             order. Then why weights: a cantilever strip refined along its length only sags
--             further and further with the unweighted angle, and hardly changes with
--             Discrete Shells' weight.
-- Equations:  001 (24)-(30); Grinspun et al. 2003 (hinge energy); Tamstorf & Grinspun 2013
--             (gradient and Hessian of theta); Bergou et al. 2006 (cotangent weights).
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 306

local cc = require "clothcheck"

local exact = cc.condition("bend", "pritchard-exact")
local bridson = cc.condition("bend", "bridson")
local shells = cc.condition("bend", "discrete-shells")
local quadratic = cc.condition("bend", "quadratic")

local function norm(a) return math.sqrt(a[1] ^ 2 + a[2] ^ 2 + a[3] ^ 2) end

-- 1. The weight by hand: a flat rest hinge with edge 2 and wings of heights 0.5 and 1.5
--    (A_rest = 2), against the toolkit's C / (theta - theta0)
local rest = {0.3, 0.5, 0,  1, 0, 0,  -1, 0, 0,  -0.2, -1.5, 0}
local folded = {0.3, 0.5, 0,  1, 0, 0,  -1, 0, 0,  -0.2, -1.5 * math.cos(0.2), -1.5 * math.sin(0.2)}
local w_hand = 2 * math.sqrt(3 / 2)
local w_toolkit = shells:eval(folded, {x_rest = rest}).value[1] / exact:eval(folded, {x_rest = rest}).value[1]
print(string.format("1. weight |e| sqrt(3/A) = 2 sqrt(3/2) = %.15f, the toolkit's %.15f", w_hand, w_toolkit))
assert(math.abs(w_hand - w_toolkit) < 1e-13)

-- 2. Three exact formulas for theta's Hessian on 20 random hinges: 001's appendix, Bridson's
--    directions, Tamstorf & Grinspun's closed form (Discrete Shells' Hessian over its weight)
local seed = 306
local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 - 0.5 end
local worst = 0
for _ = 1, 20 do
  local x = {}
  for i = 1, 12 do x[i] = rnd() end
  x[4], x[7] = x[4] + 0.8, x[7] - 0.8   -- a real edge
  local w = shells:eval(x, {x_rest = rest}).value[1] / exact:eval(x, {x_rest = rest}).value[1]
  local H = {exact:eval(x, {}).hessian[1], bridson:eval(x, {}).hessian[1], shells:eval(x, {x_rest = rest}).hessian[1]}
  local scale = 0
  for i = 1, 12 do for j = 1, 12 do scale = math.max(scale, math.abs(H[1][i][j])) end end
  for i = 1, 12 do
    for j = 1, 12 do
      local a, b, c = H[1][i][j], H[2][i][j], H[3][i][j] / w
      worst = math.max(worst, math.abs(a - b) / scale, math.abs(a - c) / scale)
    end
  end
end
print(string.format("2. appendix, Bridson and Tamstorf & Grinspun Hessians of theta: worst difference %.1e (relative)", worst))
assert(worst < 1e-12)

-- 3. The quadratic model on a flat rest hinge folded isometrically by phi: |C| = w 2 sin(phi/2)
for _, phi in ipairs{0.5, 0.05} do
  local x = {0.3, 0.5, 0,  1, 0, 0,  -1, 0, 0,  -0.2, -1.5 * math.cos(phi), -1.5 * math.sin(phi)}
  local c = norm(quadratic:eval(x, {x_rest = rest}).value)
  local d = shells:eval(x, {x_rest = rest}).value[1]
  print(string.format("3. fold %.2f rad: quadratic |C| = %.12f, Discrete Shells C = %.12f, w 2 sin(phi/2) = %.12f",
                      phi, c, d, w_hand * 2 * math.sin(phi / 2)))
  assert(math.abs(c - w_hand * 2 * math.sin(phi / 2)) < 1e-12 and math.abs(d - w_hand * phi) < 1e-12)
end

-- 4. Why weights: a strip 0.5 m x 0.1 m clamped at x = 0, 2 patches across, n along, k_bend 0.2,
--    after 0.6 s; the tip of the middle row, unweighted angle against Discrete Shells
local function tip(n, variant)
  local sim = cc.sim(cc.grid(n + 1, 3, 0.5, 0.1), {preset = "pritchard-table1", bend_variant = variant,
                                                     k_bend = 0.2, d_bend = 0.04, h = 0.01})
  for j = 0, 2 do sim:pin(1 + (n + 1) * j); sim:pin(2 + (n + 1) * j) end
  assert(sim:advance(0.6))
  local _, _, z = sim:position(n + 1 + (n + 1))
  return z
end
local ns, zt, zd = {10, 20, 40}, {}, {}
for i, n in ipairs(ns) do
  zt[i], zd[i] = tip(n, "pritchard-exact"), tip(n, "discrete-shells")
  print(string.format("4. n = %2d: tip z unweighted %.4f m, Discrete Shells %.4f m", n, zt[i], zd[i]))
  cc.progress("strips", i, #ns)
end
assert(zt[3] / zt[1] > 3, "the unweighted angle's sag grows with n")
assert(zd[3] / zd[1] < 2, "Discrete Shells' sag changes far less")
cc.plot{name = "refinement", title = "cantilever refined along its length (k-bend 0.2, 0.6 s)",
        xlabel = "patches along the strip", ylabel = "tip z (m)", logx = true, key = "bottom left",
        series = {{title = "unweighted angle (pritchard-exact)", x = ns, y = zt, with = "linespoints pt 7"},
                  {title = "Discrete Shells", x = ns, y = zd, with = "linespoints pt 7"}}}
print("lesson 306: all checks passed; the plot is " .. cc.outdir() .. "/refinement.png")
