-- Lesson 401: write your own condition in Lua, check it, and catch a planted mistake
--
-- Shows:      an area-preserving condition C = A(x)/a - 1 (world area over rest area),
--             its gradient and Hessian derived by hand, defined with cc.define, and a small
--             finite-difference checker that names the worst entry (vertex m, axis s). Then
--             two planted mistakes, a flipped sign and a forgotten projector (I - n^ n^T),
--             and the checker pointing at them.
-- Equations:  the pattern of Pritchard 001 (31)-(33) (dn/dx_{m,s} = S_s(q_m)) and of (15)
--             (d n^ = (I - n^ n^T) dn / |n|); Section 4 (check by numeric derivatives).
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 401

local cc = require "clothcheck"

local function vec(x, m) return { x[3 * m + 1], x[3 * m + 2], x[3 * m + 3] } end
local function sub(a, b) return { a[1] - b[1], a[2] - b[2], a[3] - b[3] } end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end
local AXIS = { {1, 0, 0}, {0, 1, 0}, {0, 0, 1} }
local AXIS_NAME = { "x", "y", "z" }

-- The maths. n = (x1 - x0) x (x2 - x0), A = |n|/2. Moving x_{m,s} changes n by
--   dn/dx_{m,s} = e_s x q_m,   q = {x1 - x2, x2 - x0, x0 - x1}     (like 001 (31), (34))
-- so dA/dx_{m,s} = 1/2 n^ . (e_s x q_m). The q_m themselves move: dq_m/dx_n = k_mn I with
--   k = {{0, 1, -1}, {-1, 0, 1}, {1, -1, 0}}
-- and with d n^ = (I - n^ n^T) dn / |n| (as in (15)):
--   d2A/dx_i dx_j = 1/2 [ dn_i . (I - n^ n^T) dn_j / |n|  +  n^ . (k_mn e_s x e_t) ]
local K = { {0, 1, -1}, {-1, 0, 1}, {1, -1, 0} }

local function area_condition(mistake)
  local function parts(x)
    local x0, x1, x2 = vec(x, 0), vec(x, 1), vec(x, 2)
    local n = cross(sub(x1, x0), sub(x2, x0))
    local ln = math.sqrt(dot(n, n))
    local nh = { n[1] / ln, n[2] / ln, n[3] / ln }
    local q = { sub(x1, x2), sub(x2, x0), sub(x0, x1) }
    local dn = {}                                  -- dn[i] for i = 3m + s (1-based below)
    for m = 1, 3 do for s = 1, 3 do dn[3 * (m - 1) + s] = cross(AXIS[s], q[m]) end end
    return ln, nh, dn
  end
  return cc.define{
    condition = "area", variant = mistake or "student", nv = 3, ncomp = 1, claim = "exact",
    value = function(x, rest)
      local ln = parts(x)
      return { ln / 2 / rest.area - 1 }
    end,
    gradient = function(x, rest)
      local _, nh, dn = parts(x)
      local g = {}
      for i = 1, 9 do g[i] = dot(nh, dn[i]) / 2 / rest.area end
      if mistake == "sign" then g[8] = -g[8] end   -- planted: vertex x2, axis y
      return g
    end,
    hessian = function(x, rest)
      local ln, nh, dn = parts(x)
      local H = {}
      for i = 1, 9 do
        H[i] = {}
        local m, s = (i - 1) // 3 + 1, (i - 1) % 3 + 1
        for j = 1, 9 do
          local n, t = (j - 1) // 3 + 1, (j - 1) % 3 + 1
          local projected = dot(dn[i], dn[j]) - dot(nh, dn[i]) * dot(nh, dn[j])
          if mistake == "projector" then projected = dot(dn[i], dn[j]) end   -- planted: forgot n^ n^T
          local second = K[m][n] * dot(nh, cross(AXIS[s], AXIS[t]))
          H[i][j] = (projected / ln + second) / 2 / rest.area
        end
      end
      return H
    end,
  }
end

-- The checker: central differences of the value against the gradient, and of the gradient
-- against the Hessian. Returns the worst relative error of each and where it is.
local function check(cond, x, opts, h)
  local r = cond:eval(x, opts)
  local g, H = r.gradient[1], r.hessian[1]
  local function at(i, sign)
    local y = {table.unpack(x)}
    y[i] = y[i] + sign * h
    return cond:eval(y, opts)
  end
  local worst_g, where_g, scale_g = -1, nil, 0
  local worst_h, where_h, scale_h = -1, nil, 0
  for i = 1, 9 do scale_g = math.max(scale_g, math.abs(g[i])) end
  for i = 1, 9 do for j = 1, 9 do scale_h = math.max(scale_h, math.abs(H[i][j])) end end
  for j = 1, 9 do
    local p, m = at(j, 1), at(j, -1)
    local dg = (p.value[1] - m.value[1]) / (2 * h)
    local err = math.abs(dg - g[j]) / scale_g
    if err > worst_g then worst_g, where_g = err, { j, g[j], dg } end
    for i = 1, 9 do
      local dH = (p.gradient[1][i] - m.gradient[1][i]) / (2 * h)
      err = math.abs(dH - H[i][j]) / scale_h
      if err > worst_h then worst_h, where_h = err, { i, j, H[i][j], dH } end
    end
  end
  return worst_g, where_g, worst_h, where_h
end

local function name(i) return string.format("x%d%s", (i - 1) // 3, AXIS_NAME[(i - 1) % 3 + 1]) end

local uv = { {0, 0}, {1, 0}, {0.2, 0.8} }
local opts = { uv = uv }
local x = { 0.1, -0.2, 0.05,   1.3, 0.1, 0.4,   0.2, 1.1, -0.3 }
local h = 1e-5

print("Lesson 401: your own condition, C = A(x)/a - 1")
local good = area_condition()
-- at rest (x = (u, v, 0)) the condition is zero
local at_rest = good:eval({0, 0, 0, 1, 0, 0, 0.2, 0.8, 0}, opts).value[1]
assert(math.abs(at_rest) < 1e-15, "C = 0 at the rest shape")
local eg, wg, eh, wh = check(good, x, opts, h)
print(string.format("  correct:    C = %.4f; gradient error %.1e, Hessian error %.1e", good:eval(x, opts).value[1], eg, eh))
assert(eg < 1e-9 and eh < 1e-9, "the hand derivation passes")

local signed = area_condition("sign")
eg, wg, eh, wh = check(signed, x, opts, h)
print(string.format("  planted sign flip:  gradient error %.2f at %s (analytic %.4f, difference %.4f)",
                    eg, name(wg[1]), wg[2], wg[3]))
assert(eg > 0.1 and name(wg[1]) == "x2y", "the checker points at vertex x2, axis y")
-- the Hessian check trips too, in row x2y only: the (right) Hessian is no longer the
-- derivative of that (wrong) gradient entry
print(string.format("    and the Hessian check flags row %s (error %.2f)", name(wh[1]), eh))
assert(eh > 0.1 and name(wh[1]) == "x2y", "the Hessian check flags the same row")

local unprojected = area_condition("projector")
eg, wg, eh, wh = check(unprojected, x, opts, h)
print(string.format("  planted missing projector: gradient error %.1e; Hessian error %.2f at (%s, %s)",
                    eg, eh, name(wh[1]), name(wh[2])))
print(string.format("    analytic %.4f, difference of the gradient %.4f", wh[3], wh[4]))
assert(eg < 1e-9, "a wrong Hessian passes the gradient check: check both")
assert(eh > 0.1, "the checker catches the missing projector")
-- The planted mistake adds (n^.dn_i)(n^.dn_j)/|n|/2a to entry (i, j). Where is that largest?
local x0, x1, x2 = vec(x, 0), vec(x, 1), vec(x, 2)
local n = cross(sub(x1, x0), sub(x2, x0))
local q = { sub(x1, x2), sub(x2, x0), sub(x0, x1) }
local function n_dot_dn(i) return dot(n, cross(AXIS[(i - 1) % 3 + 1], q[(i - 1) // 3 + 1])) end
local worst_term, worst_ij = -1, nil
for i = 1, 9 do for j = 1, 9 do
  local term = math.abs(n_dot_dn(i) * n_dot_dn(j))
  if term > worst_term * (1 + 1e-12) then worst_term, worst_ij = term, { i, j } end
end end
local same = (wh[1] == worst_ij[1] and wh[2] == worst_ij[2]) or (wh[1] == worst_ij[2] and wh[2] == worst_ij[1])
assert(same, "the worst entry is where the dropped term n^ n^T is largest")
print(string.format("    the dropped term n^.dn_i n^.dn_j/|n| is largest at (%s, %s): the checker found it",
                    name(worst_ij[1]), name(worst_ij[2])))

-- the picture: the checker's worst Hessian error against its step h, for the right condition
-- and the two planted mistakes: a mistake is a plateau that the V of the right one dips under
local hs, ygood, ysign, yproj = {}, {}, {}, {}
for k = 2, 22 do
  local hk = 10 ^ (-k / 2)
  hs[#hs + 1] = hk
  ygood[#ygood + 1] = select(3, check(good, x, opts, hk))
  ysign[#ysign + 1] = select(3, check(signed, x, opts, hk))
  yproj[#yproj + 1] = select(3, check(unprojected, x, opts, hk))
end
local drawn = cc.plot{dir = cc.outdir(), name = "checker", title = "your checker's worst Hessian error against its step",
  xlabel = "step h", ylabel = "worst relative error", logx = true, logy = true, key = "bottom right",
  series = {{title = "the right condition: the V", x = hs, y = ygood, with = "linespoints"},
            {title = "a sign slip at x2y", x = hs, y = ysign, with = "linespoints"},
            {title = "the projector dropped", x = hs, y = yproj, with = "linespoints"}}}
print(string.format("  plot: %s/checker.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
