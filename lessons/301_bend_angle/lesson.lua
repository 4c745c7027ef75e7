-- Lesson 301: the signed bend angle, atan2 against arccos
--
-- Shows:      the bend condition theta = atan2((nA^ x nB^).e^, nA^.nB^) of a hinge in
--             Pritchard's labels; that it is signed and covers (-pi, pi]; that the labels
--             fix the sign; and that Macri's arccos(nA^.nB^) gives |theta|, so it cannot
--             tell a fold one way from a fold the other way, and loses small angles.
-- Equations:  Pritchard 001 (24)-(30) and the remark after (30); 002 "Bend Condition".
-- Difficulty: 1 of 3
-- Run:        clothcheck lesson 301

local cc = require "clothcheck"

local pritchard = cc.condition("bend", "pritchard")
local macri = cc.condition("bend", "macri")

local function sub(a, b) return { a[1] - b[1], a[2] - b[2], a[3] - b[3] } end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end
local function unit(a) local l = math.sqrt(dot(a, a)); return { a[1] / l, a[2] / l, a[3] / l } end

-- theta of a hinge x0..x3: shared edge x1-x2, x0 in triangle A, x3 in triangle B.
local function theta(x0, x1, x2, x3)
  local nA = unit(cross(sub(x2, x0), sub(x1, x0)))             -- (25), (24)
  local nB = unit(cross(sub(x1, x3), sub(x2, x3)))             -- (26)
  local e = unit(sub(x1, x2))                                  -- (27)
  local c = dot(nA, nB)                                        -- (28)
  local s = dot(cross(nA, nB), e)                              -- (29)
  return math.atan(s, c), c                                    -- (30), atan2
end

-- A hinge whose edge lies on the y axis. Triangle A stays in the plane z = 0; triangle B is
-- turned about the edge by the fold angle phi (phi = 0: the two triangles lie flat).
local x0, x1, x2 = { -1, 0.1, 0 }, { 0, -0.5, 0 }, { 0, 0.6, 0 }
local function x3_at(phi) return { math.cos(phi), 0.2, math.sin(phi) } end
local function flat12(phi)
  local x3 = x3_at(phi)
  return { x0[1], x0[2], x0[3], x1[1], x1[2], x1[3], x2[1], x2[2], x2[3], x3[1], x3[2], x3[3] }
end

print("Lesson 301: the signed bend angle (24)-(30)")
print("   fold phi   theta (Lua)   toolkit pritchard   arccos (toolkit macri)")
local sign_seen, worst_match, worst_abs = nil, 0, 0
for deg = -180, 180, 30 do
  local phi = math.rad(deg)
  local th = theta(x0, x1, x2, x3_at(phi))
  local tp = pritchard:eval(flat12(phi), {}).value[1]
  local tm = macri:eval(flat12(phi), {}).value[1]
  print(string.format("   %5d deg   %9.4f     %9.4f           %9.4f", deg, th, tp, tm))
  worst_match = math.max(worst_match, math.abs(th - tp))
  worst_abs = math.max(worst_abs, math.abs(math.abs(th) - tm))
  if deg ~= 0 and math.abs(deg) ~= 180 then
    -- the bend angle is the fold angle, with one fixed sign for these labels
    local s = th / phi
    assert(math.abs(math.abs(s) - 1) < 1e-12, "theta should be +-phi")
    sign_seen = sign_seen or s
    assert(math.abs(s - sign_seen) < 1e-12, "one sign for all folds")
  end
end
assert(worst_match < 1e-14, "the toolkit's bend value is (30)")
assert(worst_abs < 1e-12, "arccos gives |theta|")

-- The labels carry the sign: swapping x1 and x2 flips nA, nB and e, so sin theta flips.
local phi = math.rad(40)
local a = theta(x0, x1, x2, x3_at(phi))
local b = theta(x0, x2, x1, x3_at(phi))
assert(math.abs(a + b) < 1e-14, "relabelling the edge flips theta")

-- A pre-bent cloth: rest angle theta0 = 0.5. Folding 0.5 one way is at rest; folding 0.5 the
-- other way is 1 radian from rest. arccos cannot tell them apart.
local theta0 = 0.5
local up, down = flat12(sign_seen * 0.5), flat12(-sign_seen * 0.5)
local cp_up, cp_down = pritchard:eval(up, {rest = theta0}).value[1], pritchard:eval(down, {rest = theta0}).value[1]
local cm_up, cm_down = macri:eval(up, {rest = theta0}).value[1], macri:eval(down, {rest = theta0}).value[1]
assert(math.abs(cp_up) < 1e-14 and math.abs(cp_down + 1) < 1e-14, "atan2: at rest one way, -1 the other")
assert(math.abs(cm_up) < 1e-14 and math.abs(cm_down) < 1e-14, "arccos: both look like rest")

-- Small angles: cos theta = 1 - theta^2/2 rounds to 1 when theta < ~1e-8, and arccos of it
-- returns 0 or a multiple of sqrt(eps). atan2 works from sin theta, which keeps full precision.
local tiny = 1e-9
local th_tiny = theta(x0, x1, x2, x3_at(tiny))
local acos_tiny = math.acos(select(2, theta(x0, x1, x2, x3_at(tiny))))
assert(math.abs(math.abs(th_tiny) - tiny) < 1e-6 * tiny, "atan2 resolves a 1e-9 fold")
assert(math.abs(acos_tiny - tiny) > 0.5 * tiny, "arccos loses it")

-- Just past +-pi the angle wraps: folding 179 degrees and 181 degrees are theta near +pi and -pi.
local near_pi = theta(x0, x1, x2, x3_at(math.rad(179)))
local past_pi = theta(x0, x1, x2, x3_at(math.rad(181)))
assert(math.abs(near_pi - past_pi) > 6.2, "theta jumps by 2 pi where the cloth folds flat onto itself")

print(string.format("  theta = %+.0f x phi for these labels; toolkit value vs Lua: %.1e; arccos vs |theta|: %.1e",
                    sign_seen, worst_match, worst_abs))
print(string.format("  swap x1 and x2: theta %.4f becomes %.4f", a, b))
print(string.format("  rest angle 0.5, folds of 0.5 either way: atan2 C = %.4f and %.4f; arccos C = %.4f and %.4f",
                    cp_up, cp_down, cm_up, cm_down))
print(string.format("  a fold of 1e-9 rad: atan2 gives %.6e, arccos gives %.6e", math.abs(th_tiny), acos_tiny))
print(string.format("  folds of 179 and 181 deg: theta = %.4f and %.4f (wraps at pi)", near_pi, past_pi))

-- the picture: theta from atan2 and from arccos (Macri) as the hinge folds from -180 to 180
local phis, ta, tm = {}, {}, {}
for deg = -179, 179, 2 do
  phis[#phis + 1] = deg
  ta[#ta + 1] = pritchard:eval(flat12(math.rad(deg)), {}).value[1]
  tm[#tm + 1] = macri:eval(flat12(math.rad(deg)), {}).value[1]
end
local drawn = cc.plot{dir = cc.outdir(), name = "theta", title = "the bend angle of a hinge folded by phi",
  xlabel = "fold phi (degrees)", ylabel = "theta (radians)", key = "top center",
  series = {{title = "atan2 (30): signed, wraps at +-pi", x = phis, y = ta, with = "lines"},
            {title = "arccos (Macri): |theta|", x = phis, y = tm, with = "lines"}}}
print(string.format("  plot: %s/theta.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
