-- Lesson 304: Bridson's force directions are the gradient of the bend angle
--
-- Shows:      the closed-form directions u_h, u_i, u_j, u_k of Bridson et al. (002 "Force
--             Directions", 004) are, up to a sign, d theta/dx of the signed angle (30): a
--             central difference of atan2 says u = -d theta/dx in Pritchard's labels and sign.
--             They sum to zero and exert no torque. Then the sqrt trap of 004: sin(theta/2)
--             = sqrt((1 - nA^.nB^)/2) loses small angles, returns NaN when rounding pushes
--             nA^.nB^ above 1, and its derivative is 0/0 on a flat hinge; sin(theta/2) and
--             cos(theta/2)/2 d theta from the atan2 angle have none of these problems.
-- Equations:  002 "Force Directions" and "Force Magnitude"; 004 (u_i, sin(theta/2), the NaN
--             trap); Pritchard 001 (24)-(30) for theta.
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 304

local cc = require "clothcheck"

local bridson = cc.condition("bend", "bridson")

local function vec(x, m) return { x[3 * m + 1], x[3 * m + 2], x[3 * m + 3] } end
local function sub(a, b) return { a[1] - b[1], a[2] - b[2], a[3] - b[3] } end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function len(a) return math.sqrt(dot(a, a)) end
local function cross(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end
local function scale(a, k) return { a[1] * k, a[2] * k, a[3] * k } end
local function add(a, b) return { a[1] + b[1], a[2] + b[2], a[3] + b[3] } end

-- 002 labels h, i, j, k are Pritchard's x0, x1, x2, x3: n1 = (xj - xh) x (xi - xh) = nA,
-- n2 = (xi - xk) x (xj - xk) = nB, e = xi - xj.
local function normals(x)
  local xh, xi, xj, xk = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  return cross(sub(xj, xh), sub(xi, xh)), cross(sub(xi, xk), sub(xj, xk)), sub(xi, xj), xh, xi, xj, xk
end

local function theta(x)                                       -- (30), lesson 301
  local n1, n2, e = normals(x)
  n1, n2, e = scale(n1, 1 / len(n1)), scale(n2, 1 / len(n2)), scale(e, 1 / len(e))
  return math.atan(dot(cross(n1, n2), e), dot(n1, n2)), dot(n1, n2)
end

-- 002 "Force Directions": u_h, u_i, u_j, u_k as one flat list of 12 numbers
local function directions(x)
  local n1, n2, e, xh, xi, xj, xk = normals(x)
  local le = len(e)
  local a, b = scale(n1, 1 / dot(n1, n1)), scale(n2, 1 / dot(n2, n2))
  local uh, uk = scale(a, le), scale(b, le)
  local uj = add(scale(a, dot(sub(xh, xi), e) / le), scale(b, dot(sub(xk, xi), e) / le))
  local ui = scale(add(scale(a, dot(sub(xh, xj), e) / le), scale(b, dot(sub(xk, xj), e) / le)), -1)
  local u = {}
  for m, um in ipairs({uh, ui, uj, uk}) do for s = 1, 3 do u[3 * (m - 1) + s] = um[s] end end
  return u
end

local function rel(a, b)
  local worst, sc = 0, 0
  for i = 1, #b do worst, sc = math.max(worst, math.abs(a[i] - b[i])), math.max(sc, math.abs(b[i])) end
  return worst / sc
end

local x = { -0.9, 0.15, 0.05,   0.05, -0.55, 0.02,   -0.02, 0.7, -0.04,   0.6, 0.3, 0.75 }
local u = directions(x)
local h, fd = 1e-6, {}
for i = 1, 12 do
  local xp, xm = {table.unpack(x)}, {table.unpack(x)}
  xp[i], xm[i] = xp[i] + h, xm[i] - h
  fd[i] = (theta(xp) - theta(xm)) / (2 * h)
end
local minus_u = {}
for i = 1, 12 do minus_u[i] = -u[i] end
local err_minus, err_plus = rel(minus_u, fd), rel(u, fd)
assert(err_minus < 1e-8, "u_i = -d theta/dx_i in Pritchard's sign")
assert(math.abs(err_plus - 2) < 1e-6, "+u_i is exactly the opposite of d theta/dx_i")

-- internal forces: no net force, no torque (002: orthogonal to rigid motions)
local net, torque = {0, 0, 0}, {0, 0, 0}
for m = 0, 3 do
  net = add(net, vec(u, m))
  torque = add(torque, cross(vec(x, m), vec(u, m)))
end
assert(len(net) < 1e-14 and len(torque) < 1e-14, "sum u_i = 0 and sum x_i x u_i = 0")

-- the toolkit's bend/bridson uses -u_i as its gradient; its Hessian is -du/dx
local r = bridson:eval(x, {})
local err_toolkit = rel(r.gradient[1], minus_u)
assert(err_toolkit < 1e-14, "toolkit gradient is -u")
local worst_h, sc_h = 0, 0
for j = 1, 12 do
  local xp, xm = {table.unpack(x)}, {table.unpack(x)}
  xp[j], xm[j] = xp[j] + h, xm[j] - h
  local up, um = directions(xp), directions(xm)
  for i = 1, 12 do
    worst_h = math.max(worst_h, math.abs(r.hessian[1][i][j] + (up[i] - um[i]) / (2 * h)))
    sc_h = math.max(sc_h, math.abs(r.hessian[1][i][j]))
  end
end
assert(worst_h / sc_h < 1e-7, "toolkit Hessian is -du/dx")

print("Lesson 304: Bridson's directions and the sqrt trap")
print(string.format("  -u vs central difference of theta: %.1e;  +u: %.2f (opposite sign)", err_minus, err_plus))
print(string.format("  |sum u_i| = %.1e, |sum x_i x u_i| = %.1e", len(net), len(torque)))
print(string.format("  toolkit bend/bridson: gradient vs -u %.1e, Hessian vs -du/dx (differences) %.1e",
                    err_toolkit, worst_h / sc_h))

-- The trap, part 1: small angles. Fold the hinge of lesson 301 by phi and compare
-- sqrt((1 - cos)/2) with sin(theta/2) from the atan2 angle.
local function folded(phi)
  return { -1, 0.1, 0,   0, -0.5, 0,   0, 0.6, 0,   math.cos(phi), 0.2, math.sin(phi) }
end
print("  fold phi   sqrt((1-cos)/2)   sin(theta/2) (atan2)   relative error of sqrt")
for _, phi in ipairs({1e-1, 1e-3, 1e-5, 1e-7, 1e-9}) do
  local th, c = theta(folded(phi))
  local by_sqrt, by_atan = math.sqrt((1 - c) / 2), math.sin(th / 2)
  local e = math.abs(by_sqrt - by_atan) / by_atan
  print(string.format("    %.0e   %.10e    %.10e        %.1e", phi, by_sqrt, by_atan, e))
  assert(math.abs(by_atan - math.sin(phi / 2)) < 1e-12 * phi, "atan2 keeps small angles")
  if phi <= 1e-7 then assert(e > 1e-4, "sqrt loses small angles to cancellation in 1 - cos") end
end

-- Part 2: NaN. Tilt flat hinges out of the coordinate planes; rounding makes nA^.nB^ exceed 1
-- for some, and sqrt of the negative 1 - cos is NaN. A simple generator makes it repeatable.
local seed = 12345
local function random() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
local tried, nan_at
for n = 1, 1000 do
  local p = { {-1, random()}, {0, -0.5 - random()}, {0, 0.5 + random()}, {1, random()} }
  local a, b = random() * 3, random() * 3                     -- tilt: two rotations
  local y = {}
  for m = 1, 4 do
    local px, py = p[m][1], p[m][2]
    local qx, qy, qz = px * math.cos(a), py, px * math.sin(a)
    y[3 * m - 2], y[3 * m - 1], y[3 * m] = qx, qy * math.cos(b) - qz * math.sin(b), qy * math.sin(b) + qz * math.cos(b)
  end
  local th, c = theta(y)
  tried = n
  if c > 1 then nan_at = { th = th, c = c, s = math.sqrt((1 - c) / 2) }; break end
end
assert(nan_at, "some flat hinge rounds nA^.nB^ above 1")
assert(nan_at.s ~= nan_at.s, "sqrt of a negative number is NaN")
assert(math.abs(math.sin(nan_at.th / 2)) < 1e-15, "sin(theta/2) from atan2 stays finite and tiny")

-- Part 3: the derivative. d sqrt((1-cos)/2) = -dcos / (4 sqrt((1-cos)/2)). On an exactly
-- flat hinge both dcos and the sqrt are 0: the quotient is 0/0. 004's way round it:
-- d sin(theta/2)/dx = cos(theta/2)/2 d theta/dx, here -cos(theta/2)/2 u.
local flat = folded(0)
local _, c0 = theta(flat)
local up, down = {table.unpack(flat)}, {table.unpack(flat)}
up[12], down[12] = flat[12] + 1e-6, flat[12] - 1e-6            -- move x3 along z
local dcos = (select(2, theta(up)) - select(2, theta(down))) / 2e-6
local by_chain = -dcos / (4 * math.sqrt((1 - c0) / 2))
local good = -math.cos(0) / 2 * directions(flat)[12]
assert(c0 == 1 and not (by_chain == by_chain and math.abs(by_chain) < math.huge), "0/0 on the flat hinge")
assert(good == good and math.abs(good) < math.huge and good ~= 0, "cos(theta/2)/2 d theta is finite")

print(string.format("  tilted flat hinges: hinge %d has nA^.nB^ = 1 + %.1e, sqrt gives %s, atan2 gives theta = %.1e",
                    tried, nan_at.c - 1, tostring(nan_at.s), nan_at.th))
print(string.format("  flat hinge, d sin(theta/2)/d x3z: through sqrt %s, through theta %.6f",
                    tostring(by_chain), good))

-- the picture: the relative error of sqrt((1 - cos)/2) against the fold, 1e-10 to 1 rad
local phis, errs = {}, {}
for k = 0, 40 do
  local phi = 10 ^ (-k / 4)
  local th, c = theta(folded(phi))
  phis[#phis + 1] = phi
  errs[#errs + 1] = math.max(math.abs(math.sqrt(math.max(0, (1 - c) / 2)) - math.sin(th / 2)) / math.sin(th / 2), 1e-17)
end
local drawn = cc.plot{dir = cc.outdir(), name = "sqrt_trap", title = "sin(theta/2) as sqrt((1 - cos theta)/2): relative error",
  xlabel = "fold (radians)", ylabel = "relative error (1e-17 where exact)", logx = true, logy = true, key = "top right",
  series = {{title = "sqrt((1 - cos)/2), cos = dot of the unit normals, vs sin(theta/2) by atan2", x = phis, y = errs, with = "linespoints"}}}
print(string.format("  plot: %s/sqrt_trap.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
