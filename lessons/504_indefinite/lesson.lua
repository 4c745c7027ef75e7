-- Lesson 504: when the system matrix is indefinite, and what clamping or projection changes
--
-- Shows:      the stiffness of a condition with energy E = k/2 C^2 is k (dC dC^T + C d2C).
--             The first part is positive semi-definite; the second has the sign of C. A
--             compressed stretch element (C < 0) has a direction of negative curvature
--             (lesson 103), so the backward Euler matrix A = M - h^2 df/dx = M + h^2 K can
--             lose definiteness when h^2 k |C| |d2C| outweighs the mass. Measured on one
--             triangle (the eigenvalues of its 9 x 9 stiffness) and on a compressed cloth with
--             the toolkit's probe (sim:lambda_min, clothcheck probe): the smallest eigenvalue
--             of A falls below zero as the cloth is squeezed; leaving the C d2C part out
--             (Gauss-Newton), clamping it where the element pushes outwards, or projecting each
--             element's stiffness to PSD keeps A definite -- at the price of a matrix that is
--             no longer the derivative of the force.
-- Equations:  001 (13)-(18), 5.3; the implicit step of lesson 502; the Hessian modes of the
--             simulator (src/sim/sim.h, cc_hessian_mode).
-- Difficulty: 3 of 3
-- Run:        clothcheck lesson 504

local cc = require "clothcheck"

-- eigenvalues of a symmetric matrix (rows S[i][j], copied) by cyclic Jacobi rotations
local function eigenvalues(S)
  local n, A = #S, {}
  for i = 1, n do A[i] = {table.unpack(S[i])} end
  for _ = 1, 60 do
    local off = 0
    for p = 1, n do for q = p + 1, n do off = off + A[p][q] ^ 2 end end
    if off < 1e-30 then break end
    for p = 1, n do for q = p + 1, n do
      if math.abs(A[p][q]) > 1e-300 then
        local theta = (A[q][q] - A[p][p]) / (2 * A[p][q])
        local t = (theta >= 0 and 1 or -1) / (math.abs(theta) + math.sqrt(theta * theta + 1))
        local c = 1 / math.sqrt(t * t + 1)
        local s = t * c
        for k = 1, n do
          local kp, kq = A[k][p], A[k][q]
          A[k][p], A[k][q] = c * kp - s * kq, s * kp + c * kq
        end
        for k = 1, n do
          local pk, qk = A[p][k], A[q][k]
          A[p][k], A[q][k] = c * pk - s * qk, s * pk + c * qk
        end
      end
    end end
  end
  local ev = {}
  for i = 1, n do ev[i] = A[i][i] end
  table.sort(ev)
  return ev
end

-- 1. One triangle. K = k sum_c (dC_c dC_c^T + C_c d2C_c), full, and with C_c d2C_c left out
-- where C_c < 0 (clamp: there the element pushes outwards) or everywhere (Gauss-Newton).
local stretch = cc.condition("stretch", "bw98")
local uv = {{0, 0}, {1, 0}, {0, 1}}
local function stiffness(x, mode)
  local r = stretch:eval(x, {uv = uv, area_power = 1})
  local K = {}
  for i = 1, 9 do K[i] = {} for j = 1, 9 do K[i][j] = 0 end end
  for c = 1, 2 do
    local C, g, H = r.value[c], r.gradient[c], r.hessian[c]
    local keep = mode == "full" or (mode == "clamp" and C >= 0)
    for i = 1, 9 do for j = 1, 9 do
      K[i][j] = K[i][j] + g[i] * g[j] + (keep and C * H[i][j] or 0)
    end end
  end
  return K
end
local print_rows = {}
for _, squeeze in ipairs({1.2, 1.0, 0.8, 0.6}) do
  local x = {0, 0, 0,  squeeze, 0, 0,  0, 1, 0.0}
  local full, gn, cl = eigenvalues(stiffness(x, "full"))[1], eigenvalues(stiffness(x, "gauss-newton"))[1],
                       eigenvalues(stiffness(x, "clamp"))[1]
  print_rows[#print_rows + 1] = {squeeze, full, gn, cl}
end

-- 2. A cloth: a 9 x 9 grid of side 0.5 m squeezed in x by a factor s (with a small ripple so
-- that it is not exactly flat), Table 1 parameters, h = 0.02; two corners pinned. The probe:
-- lambda_min(A) over the smallest vertex mass, as assembled and with each stretch mode.
local function cloth(s)
  local m = cc.grid(9, 9, 0.5, 0.5)
  for i = 1, m.nv do
    local px, py = m:position(i)
    m:set_position(i, s * px, py, 0.005 * math.sin(9 * px + 5 * py))
  end
  local sim = cc.sim(m, {preset = "pritchard-table1", h = 0.02})
  sim:pin(73); sim:pin(81)
  return sim
end
local squeezes, curves = {}, {full = {}, ["gauss-newton"] = {}, clamp = {}, project = {}}
for k = 0, 12 do
  local s = 1 - 0.025 * k
  local sim = cloth(s)
  squeezes[#squeezes + 1] = s
  for mode, list in pairs(curves) do
    local l, mmin = sim:lambda_min("stretch", mode)
    list[#list + 1] = l / mmin
  end
end

-- 3. What the simulator does with an indefinite A: MPCG meets negative curvature, and the
-- step is solved again with every element projected to PSD (stats.psd_retries).
local sim = cloth(0.8)
local before = sim:lambda_min()
assert(sim:step())
local retries = sim:stats().psd_retries

print("Lesson 504: when the system matrix is indefinite")
print("  one triangle, w_u stretched by s (k = 1): smallest eigenvalue of its stiffness")
print("       s      full      Gauss-Newton   clamp")
for _, r in ipairs(print_rows) do print(string.format("    %4.1f   %9.2e   %9.2e   %9.2e", r[1], r[2], r[3], r[4])) end
print("  9 x 9 cloth squeezed to s in x, h = 0.02: lambda_min(A) / m_min with the stretch term")
print("       s      full    Gauss-Newton   clamp    project")
for i = 1, #squeezes, 2 do
  print(string.format("    %5.3f  %8.3g  %8.3g     %8.3g  %8.3g", squeezes[i], curves.full[i], curves["gauss-newton"][i],
                      curves.clamp[i], curves.project[i]))
end
print(string.format("  a step of the cloth squeezed to 0.8: lambda_min(A) = %.3g before it; PSD retries: %d", before, retries))

local out = cc.outdir()
local drawn = cc.plot{dir = out, name = "lambda_min", title = "backward Euler matrix A of a squeezed cloth, h = 0.02",
  layout = {1, 2}, panels = {
    {title = "full stiffness: indefinite once squeezed", xlabel = "squeeze factor s",
     ylabel = "smallest eigenvalue of A / smallest mass", series = {
      {title = "full", x = squeezes, y = curves.full, with = "linespoints"}}},
    {title = "stretch's C d2C changed: definite", xlabel = "squeeze factor s", ylabel = "", series = {
      {title = "Gauss-Newton", x = squeezes, y = curves["gauss-newton"], with = "linespoints"},
      {title = "clamp", x = squeezes, y = curves.clamp, with = "linespoints"},
      {title = "projected per element", x = squeezes, y = curves.project, with = "linespoints"}}}}}
print(string.format("  plot: %s/lambda_min.png%s", out, drawn and "" or " (gnuplot missing: data and .gp written)"))

assert(print_rows[1][2] > -1e-12 and print_rows[3][2] < -1e-3, "a stretched triangle is PSD, a compressed one is not")
for _, r in ipairs(print_rows) do assert(r[3] > -1e-12 and r[4] > -1e-12, "Gauss-Newton and clamp are PSD") end
assert(curves.full[1] > 0 and curves.full[#curves.full] < 0, "squeezing makes A indefinite")
for _, mode in ipairs({"gauss-newton", "clamp", "project"}) do
  for _, l in ipairs(curves[mode]) do assert(l > 0, mode .. " keeps A definite") end
end
assert(before < 0 and retries >= 1, "the step met the negative curvature and was solved again with PSD elements")
print("All checks passed.")
