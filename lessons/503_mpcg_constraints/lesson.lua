-- Lesson 503: MPCG with constraints -- the filter S, the prescribed z, Ascher & Boxerman's fix
--
-- Shows:      Baraff & Witkin's modified preconditioned conjugate gradient solves A dv = b on
--             the free directions of each particle while the constrained directions take the
--             prescribed change z: per vertex S_i = I (free), I - p p^T (slides in the plane
--             normal to p), d d^T (slides along d), 0 (pinned), and (I - S) dv = (I - S) z
--             holds exactly at every iteration because every update is filtered. It is CG on
--             the reduced system S A S y = S (b - A z), dv = z + y. Ascher & Boxerman's
--             corrections: measure delta0 on that right-hand side, S (b - A z), not on
--             filter(b) -- otherwise a solve whose answer is nearly z stops far above its
--             tolerance -- and precondition with the filtered blocks S_i A_ii S_i + (I - S_i).
-- Equations:  Baraff & Witkin 1998 Section 5.3 (as 001 5.2 and 003 3.1 discuss it; z scaled
--             by h, 001 5.2); Ascher & Boxerman 2003, "On the modified conjugate gradient
--             method in cloth simulation"; the system of lesson 502.
-- Difficulty: 3 of 3
-- Run:        clothcheck lesson 503

local cc = require "clothcheck"

-- The system: one backward Euler step (lesson 502) of a 4 x 4 mass-spring cloth (004):
-- springs on the grid edges and diagonals, A = M - h^2 df/dx, b = h f0, here at rest + sag.
local n, h, k, mass = 4, 0.02, 500, 0.01
local nv = n * n
local spring = cc.condition("spring", "linear")
local x = {}
for j = 0, n - 1 do for i = 0, n - 1 do
  local p = 3 * (j * n + i)
  x[p + 1], x[p + 2], x[p + 3] = 1.05 * i / (n - 1), j / (n - 1), 0.1 * math.sin(i + 2 * j)
end end
local N = 3 * nv
local A, f = {}, {}
for r = 1, N do A[r], f[r] = {}, 0; for c = 1, N do A[r][c] = 0 end end
local function add_spring(a, b, L)
  local xe = {x[3 * a + 1], x[3 * a + 2], x[3 * a + 3], x[3 * b + 1], x[3 * b + 2], x[3 * b + 3]}
  local e = spring:eval(xe, {rest = L})
  local C, g, H = e.value[1], e.gradient[1], e.hessian[1]
  local idx = {3 * a + 1, 3 * a + 2, 3 * a + 3, 3 * b + 1, 3 * b + 2, 3 * b + 3}
  for I = 1, 6 do
    f[idx[I]] = f[idx[I]] - k * C * g[I]
    for J = 1, 6 do A[idx[I]][idx[J]] = A[idx[I]][idx[J]] + h * h * k * (g[I] * g[J] + C * H[I][J]) end
  end
end
local d = 1 / (n - 1)
for j = 0, n - 1 do for i = 0, n - 1 do
  local v = j * n + i
  if i < n - 1 then add_spring(v, v + 1, d) end
  if j < n - 1 then add_spring(v, v + n, d) end
  if i < n - 1 and j < n - 1 then add_spring(v, v + n + 1, d * math.sqrt(2)); add_spring(v + 1, v + n, d * math.sqrt(2)) end
end end
local b = {}
for r = 1, N do A[r][r] = A[r][r] + mass; b[r] = h * (f[r] + (r % 3 == 0 and -9.81 * mass or 0)) end

-- Constraints: vertex 0 pinned and moving (z = its prescribed velocity change), vertex 3
-- pinned still, vertex 12 slides in the plane with normal p = (0, 0.6, 0.8), vertex 15 slides
-- along d = (0.6, 0.8, 0).
local S, z = {}, {}
for v = 0, nv - 1 do S[v] = {1, 0, 0, 0, 1, 0, 0, 0, 1} end
for r = 1, N do z[r] = 0 end
S[0], S[3] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0, 0}
S[12] = {1, 0, 0, 0, 0.64, -0.48, 0, -0.48, 0.36}   -- I - p p^T
S[15] = {0.36, 0.48, 0, 0.48, 0.64, 0, 0, 0, 0}      -- d d^T
z[1], z[2], z[3] = 0.01, 0.0, 0.02

local function filter(r)
  local out = {}
  for v = 0, nv - 1 do
    local s = S[v]
    for a = 1, 3 do
      out[3 * v + a] = s[3 * a - 2] * r[3 * v + 1] + s[3 * a - 1] * r[3 * v + 2] + s[3 * a] * r[3 * v + 3]
    end
  end
  return out
end
local function mul(M, y) local o = {} for r = 1, N do local s = 0 for c = 1, N do s = s + M[r][c] * y[c] end o[r] = s end return o end
local function dot(p, q) local s = 0 for r = 1, N do s = s + p[r] * q[r] end return s end
local function axpy(a, p, q) local o = {} for r = 1, N do o[r] = a * p[r] + q[r] end return o end

-- Preconditioners, as a function applying P^-1: Jacobi (Baraff & Witkin: 1/A_rr) and Ascher &
-- Boxerman's blocks S_i (S_i A_ii S_i + I - S_i)^-1 S_i
local function jacobi(r) local o = {} for i = 1, N do o[i] = r[i] / A[i][i] end return o end
local function inv3(m)
  local a, b_, c, d_, e, f_, g, h_, i = table.unpack(m)
  local det = a * (e * i - f_ * h_) - b_ * (d_ * i - f_ * g) + c * (d_ * h_ - e * g)
  return {(e * i - f_ * h_) / det, (c * h_ - b_ * i) / det, (b_ * f_ - c * e) / det,
          (f_ * g - d_ * i) / det, (a * i - c * g) / det, (c * d_ - a * f_) / det,
          (d_ * h_ - e * g) / det, (b_ * g - a * h_) / det, (a * e - b_ * d_) / det}
end
local function mat3mul(p, q)
  local o = {}
  for r = 0, 2 do for c = 1, 3 do o[3 * r + c] = p[3 * r + 1] * q[c] + p[3 * r + 2] * q[3 + c] + p[3 * r + 3] * q[6 + c] end end
  return o
end
local Pinv = {}
for v = 0, nv - 1 do
  local blk = {}
  for a = 1, 3 do for c = 1, 3 do blk[3 * (a - 1) + c] = A[3 * v + a][3 * v + c] end end
  local SAS = mat3mul(mat3mul(S[v], blk), S[v])
  for q = 1, 9 do SAS[q] = SAS[q] + ((q == 1 or q == 5 or q == 9) and 1 or 0) - S[v][q] end
  Pinv[v] = mat3mul(mat3mul(S[v], inv3(SAS)), S[v])
end
local function ab_block(r)
  local o = {}
  for v = 0, nv - 1 do
    local m = Pinv[v]
    for a = 1, 3 do o[3 * v + a] = m[3 * a - 2] * r[3 * v + 1] + m[3 * a - 1] * r[3 * v + 2] + m[3 * a] * r[3 * v + 3] end
  end
  return o
end

-- MPCG. bw0 = true measures delta0 as Baraff & Witkin do, filter(b)^T P filter(b) (with P the
-- inverse of the preconditioner's P^-1, for Jacobi: A_rr); otherwise on S (b - A z) with P^-1.
-- Returns dv, iterations and the history of the true relative residual |S(b - A dv)|/|S(b - A z)|.
local function mpcg(bv, zv, precond, tol, bw0)
  local dv = {table.unpack(zv)}
  local r = filter(axpy(-1, mul(A, dv), bv))
  local delta0
  if bw0 then
    local fb = filter(bv)
    delta0 = 0
    for i = 1, N do delta0 = delta0 + fb[i] * A[i][i] * fb[i] end
  else
    delta0 = dot(r, filter(precond(r)))
  end
  local c = filter(precond(r))
  local delta = dot(r, c)
  local r0n = math.sqrt(dot(r, r))
  local hist, it = {1}, 0
  while delta > tol * tol * delta0 and it < 10 * N do
    local q = filter(mul(A, c))
    local alpha = delta / dot(c, q)
    dv, r = axpy(alpha, c, dv), axpy(-alpha, q, r)
    local s = filter(precond(r))
    local dnew = dot(r, s)
    c = filter(axpy(dnew / delta, c, s))
    delta, it = dnew, it + 1
    hist[#hist + 1] = math.sqrt(dot(r, r)) / r0n
  end
  local true_r = filter(axpy(-1, mul(A, dv), bv))
  return dv, it, math.sqrt(dot(true_r, true_r)) / r0n, hist
end

-- the constrained part of dv - z: zero when the constraints hold
local function constraint_error(dv)
  local e, diff = 0, axpy(-1, z, dv)
  local free = filter(diff)
  for i = 1, N do e = math.max(e, math.abs(diff[i] - free[i])) end
  return e
end

print("Lesson 503: MPCG with constraints (4 x 4 mass-spring cloth, 48 unknowns)")
local tol = 1e-8
local dv_j, it_j, res_j, hist_j = mpcg(b, z, jacobi, tol, false)
local dv_a, it_a, res_a, hist_a = mpcg(b, z, ab_block, tol, false)
print(string.format("  tol %.0e, delta0 on S(b - A z): Jacobi %d iterations (residual %.1e), " ..
                    "Ascher & Boxerman blocks %d (%.1e)", tol, it_j, res_j, it_a, res_a))
local ce = math.max(constraint_error(dv_j), constraint_error(dv_a))
print(string.format("  constraints: largest |(I - S)(dv - z)| = %.1e (rounding: every update is filtered)", ce))

-- A solve whose answer is nearly z: the right-hand side is mostly the pull of the moving pins,
-- b = A z + a small rest, so the free particles hardly need to change velocity. S (b - A z) is
-- small, filter(b) = S A z is not: Baraff & Witkin's delta0 is far too large, and their test
-- stops while the residual of the system actually solved is still far above the tolerance.
local z2 = {}
for i = 1, N do z2[i] = 0 end
z2[1], z2[2], z2[3], z2[10], z2[11], z2[12] = 0.2, -0.1, 0.3, -0.1, 0.2, 0.1
local b2 = mul(A, z2)
for i = 1, N do b2[i] = b2[i] + 1e-4 * math.cos(3 * i) end
local _, it_bw, res_bw = mpcg(b2, z2, jacobi, 1e-3, true)
local _, it_fix, res_fix = mpcg(b2, z2, jacobi, 1e-3, false)
print(string.format("  the pins' pull, b = A z + 1e-4, tol 1e-3: Baraff & Witkin's delta0: %d iterations, residual %.2f; " ..
                    "Ascher & Boxerman's: %d, %.1e", it_bw, res_bw, it_fix, res_fix))

local its_j, its_a = {}, {}
for i = 1, #hist_j do its_j[i] = i - 1 end
for i = 1, #hist_a do its_a[i] = i - 1 end
local drawn = cc.plot{dir = cc.outdir(), name = "residual", title = "MPCG on the filtered system: relative residual",
  xlabel = "iteration", ylabel = "|S (b - A dv)| / |S (b - A z)|", logy = true,
  series = {{title = "Jacobi (Baraff and Witkin)", x = its_j, y = hist_j, with = "linespoints"},
            {title = "filtered blocks (Ascher and Boxerman)", x = its_a, y = hist_a, with = "linespoints"}}}
print(string.format("  plot: %s/residual.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))

assert(res_j < 1e-6 and res_a < 1e-6, "both converge")
assert(ce < 1e-15, "the constraints hold to rounding")
assert(res_bw > 10 * 1e-3 and it_bw < it_fix, "Baraff & Witkin's delta0 stops a solve whose answer is nearly z early")
assert(res_fix < 3e-3, "measured on S (b - A z), the test stops near the tolerance asked for (in the P^-1 norm)")
print("All checks passed.")
