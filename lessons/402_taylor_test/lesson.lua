-- Lesson 402: checking a derivative you do not trust: finite differences, the V, the Taylor test
--
-- Shows:      two ways to check a gradient and a Hessian with nothing but values. (a) Finite
--             differences: the error of a forward difference falls like h and of a central
--             one like h^2 until round-off, which grows like eps/h, takes over -- the "V" --
--             so the best step is about sqrt(eps) (forward) or eps^(1/3) (central) and the
--             best agreement 1e-8 or 1e-11, never 1e-16. (b) The Taylor test: the remainder
--             C(x + e d) - C(x) - e g.d shrinks like e^2 when g is right and only like e when
--             it is wrong, however slightly; with the Hessian term it shrinks like e^3. It
--             needs no step size and no tolerance: it reads an order, 2 or 1, off a table.
-- Equations:  001 Section 4 (numeric derivatives); the stretch condition (13) and its
--             derivatives (14)-(15) as the condition under test.
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 402

local cc = require "clothcheck"

local stretch = cc.condition("stretch", "bw98")
local opts = {uv = {{0, 0}, {1, 0.2}, {0.3, 0.9}}, area_power = 0.75}
local x = {0.1, -0.2, 0.05,   1.3, 0.1, 0.4,   0.2, 1.1, -0.3}
local d = {0.3, -0.5, 0.2,   -0.1, 0.4, 0.6,   0.7, -0.2, -0.4}   -- a direction to probe along

local function C(y) return stretch:eval(y, opts).value[1] end
local function along(e) local y = {} for i = 1, 9 do y[i] = x[i] + e * d[i] end return y end
local r = stretch:eval(x, opts)
local g, H = r.gradient[1], r.hessian[1]
local gd, dHd = 0, 0                                     -- g.d and d^T H d
for i = 1, 9 do
  gd = gd + g[i] * d[i]
  for j = 1, 9 do dHd = dHd + d[i] * H[i][j] * d[j] end
end

-- (a) the V: forward and central differences of C along d against g.d, h = 1e-1 .. 1e-13
local hs, ef, ec = {}, {}, {}
for k = 2, 26 do
  local h = 10 ^ (-k / 2)
  hs[#hs + 1] = h
  ef[#ef + 1] = math.abs((C(along(h)) - C(x)) / h - gd) / math.abs(gd)
  ec[#ec + 1] = math.abs((C(along(h)) - C(along(-h))) / (2 * h) - gd) / math.abs(gd)
end
local function best(e) local b, at = math.huge, 0 for i, v in ipairs(e) do if v < b then b, at = v, hs[i] end end return b, at end
local bf, hf = best(ef)
local bc, hc = best(ec)
-- slopes on the truncation side (h = 1e-1 .. 1e-3): log10 of the error per decade of h
local slope_f = (math.log(ef[1], 10) - math.log(ef[5], 10)) / 2
local slope_c = (math.log(ec[1], 10) - math.log(ec[5], 10)) / 2

-- (b) the Taylor test: remainders at e = 2^-1 .. 2^-20 and their observed orders
-- log2(r(e) / r(e/2)); g_bad is g with one entry off by 1e-3 of g's largest entry
local gmax = 0
for i = 1, 9 do gmax = math.max(gmax, math.abs(g[i])) end
local g_bad = {table.unpack(g)}
g_bad[5] = g_bad[5] + 1e-3 * gmax
local gd_bad = 0
for i = 1, 9 do gd_bad = gd_bad + g_bad[i] * d[i] end
local eps, r0, r1, r1_bad, r2 = {}, {}, {}, {}, {}
for k = 1, 20 do
  local e = 2 ^ -k
  local dc = C(along(e)) - C(x)
  eps[k], r0[k] = e, math.abs(dc)
  r1[k], r1_bad[k] = math.abs(dc - e * gd), math.abs(dc - e * gd_bad)
  r2[k] = math.abs(dc - e * gd - e * e / 2 * dHd)
end
-- the observed order of a remainder as e -> 0: the median of log2(r(e)/r(e/2)) over the four
-- smallest halvings down to e = 2^-last (an order is a limit: a small error in g only shows
-- once e g.d's error outgrows the e^2 term)
local function order(rr, last)
  local o = {}
  for k = last - 4, last - 1 do o[#o + 1] = math.log(rr[k] / rr[k + 1], 2) end
  table.sort(o)
  return (o[2] + o[3]) / 2
end
local o0, o1, o1_bad, o2 = order(r0, 20), order(r1, 20), order(r1_bad, 20), order(r2, 12)

print("Lesson 402: checking a derivative with values only (stretch C_u, 001 (13)-(15))")
print("  (a) finite differences of C along d against g.d (relative error)")
print("        h        forward    central")
for i = 1, #hs, 2 do print(string.format("    %8.0e   %9.2e  %9.2e", hs[i], ef[i], ec[i])) end
print(string.format("  slopes on the truncation side: forward %.2f, central %.2f (1 and 2)", slope_f, slope_c))
print(string.format("  best forward %.1e at h = %.0e; best central %.1e at h = %.0e", bf, hf, bc, hc))
print("  (b) the Taylor test, e = 2^-1 .. 2^-20: observed order log2(r(e)/r(e/2)) as e -> 0")
print(string.format("    C(x+ed) - C(x)                         %.2f  (1: C moves)", o0))
print(string.format("    ... - e g.d, the toolkit's g            %.2f  (2: g is right)", o1))
print(string.format("    ... - e g.d, one entry off by 1e-3     %.2f  (1: g is wrong)", o1_bad))
print(string.format("    ... - e g.d - e^2/2 d^T H d (e >= 2^-12) %.2f  (3: H is right)", o2))

-- pictures: the V and the Taylor remainders, in the output folder
local out = cc.outdir()
local drawn = cc.plot{dir = out, name = "v_curve", title = "finite differences of the stretch C_u: error against step",
  xlabel = "step h", ylabel = "relative error of the directional derivative", logx = true, logy = true,
  series = {{title = "forward (slope 1, then eps/h)", x = hs, y = ef, with = "linespoints"},
            {title = "central (slope 2, then eps/h)", x = hs, y = ec, with = "linespoints"}}}
cc.plot{dir = out, name = "taylor", title = "Taylor test: remainders against e",
  xlabel = "e", ylabel = "remainder", logx = true, logy = true, key = "bottom right",
  series = {{title = "C(x+ed) - C(x): order 1", x = eps, y = r0, with = "linespoints"},
            {title = "- e g.d, g right: order 2", x = eps, y = r1, with = "linespoints"},
            {title = "- e g.d, g off by 1e-3: order 1", x = eps, y = r1_bad, with = "linespoints"},
            {title = "- e^2/2 d^T H d: order 3", x = {table.unpack(eps, 1, 12)}, y = {table.unpack(r2, 1, 12)}, with = "linespoints"}}}
print(string.format("  plots: %s/v_curve.png, %s/taylor.png%s", out, out, drawn and "" or " (gnuplot missing: data and .gp written)"))

assert(math.abs(slope_f - 1) < 0.1 and math.abs(slope_c - 2) < 0.1, "truncation orders 1 and 2")
assert(bf > 1e-10 and bf < 1e-6 and bc < 1e-9, "the V bottoms out near sqrt(eps) and eps^(2/3)")
assert(hc > hf, "the best central step is larger than the best forward one")
assert(math.abs(o0 - 1) < 0.1 and math.abs(o1 - 2) < 0.1 and math.abs(o2 - 3) < 0.2, "orders 1, 2, 3")
assert(math.abs(o1_bad - 1) < 0.1, "a gradient off by 1e-3 in one entry shows order 1")
print("All checks passed.")
