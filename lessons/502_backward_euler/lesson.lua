-- Lesson 502: backward Euler by hand -- one implicit step of a spring, then of a small cloth
--
-- Shows:      Baraff & Witkin's step, (M - h df/dv - h^2 df/dx) dv = h (f0 + h df/dx v0),
--             x1 = x0 + h (v0 + dv), for one spring (6 x 6) and a 3 x 3 cloth under stretch,
--             shear and gravity (27 x 27), assembled from the toolkit's conditions and solved
--             in Lua: the simulator's step. Over many steps of a stiff spring explicit Euler
--             gains energy without bound, backward Euler loses it (numerical damping).
-- Equations:  Baraff & Witkin's implicit step as 001 5.2 and 003 3.2 write it; the spring
--             of 004; the stretch (13)-(18) and shear (19)-(23) conditions of 001;
--             E = k/2 C^2, f = -k C dC/dx, df/dx = -k (dC/dx dC/dx^T + C d2C/dx2).
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 502

local cc = require "clothcheck"

-- Gauss-Jordan elimination with partial pivoting: the solution of A y = b (A rows, n x n)
local function solve(A, b)
  local n, M, y = #b, {}, {}
  for i = 1, n do M[i] = {table.unpack(A[i])}; M[i][n + 1] = b[i] end
  for c = 1, n do
    local p = c
    for r = c + 1, n do if math.abs(M[r][c]) > math.abs(M[p][c]) then p = r end end
    M[c], M[p] = M[p], M[c]
    for r = 1, n do
      local f = r ~= c and M[r][c] / M[c][c] or 0
      for k = c, n + 1 do M[r][k] = M[r][k] - f * M[c][k] end
    end
  end
  for i = 1, n do y[i] = M[i][n + 1] / M[i][i] end
  return y
end

-- add the force and stiffness of condition cond on element (1-based vertex numbers) with
-- stiffness k: f += -k C dC/dx, K += -k (dC/dx dC/dx^T + C d2C/dx2), over each component
local function add_element(f, K, cond, x, element, opts, k)
  local xe = {}
  for a, i in ipairs(element) do for s = 1, 3 do xe[3 * (a - 1) + s] = x[3 * (i - 1) + s] end end
  local r = cond:eval(xe, opts)
  for c = 1, #r.value do
    local C, g, H = r.value[c], r.gradient[c], r.hessian[c]
    for a, i in ipairs(element) do for s = 1, 3 do
      local I = 3 * (a - 1) + s
      f[3 * (i - 1) + s] = f[3 * (i - 1) + s] - k * C * g[I]
      for b, j in ipairs(element) do for t = 1, 3 do
        local J = 3 * (b - 1) + t
        local row = K[3 * (i - 1) + s]
        row[3 * (j - 1) + t] = row[3 * (j - 1) + t] - k * (g[I] * g[J] + C * H[I][J])
      end end
    end end
  end
end

-- one backward Euler step of particles with masses m (per vertex), forces from `forces`
-- (x -> f, K), free DOFs `free` (the others keep their velocity): x1, v1
local function backward_euler(x, v, m, h, forces, free)
  local n = #x
  local f, K = forces(x)
  local A, b, idx = {}, {}, {}
  for i = 1, n do if free[i] then idx[#idx + 1] = i end end
  for a, i in ipairs(idx) do
    A[a], b[a] = {}, f[i]
    for c, j in ipairs(idx) do
      A[a][c] = (i == j and m[(i - 1) // 3 + 1] or 0) - h * h * K[i][j]
    end
    for j = 1, n do b[a] = b[a] + h * K[i][j] * v[j] end
    b[a] = h * b[a]
  end
  local dv = solve(A, b)
  local x1, v1 = {}, {table.unpack(v)}
  for a, i in ipairs(idx) do v1[i] = v[i] + dv[a] end
  for i = 1, n do x1[i] = x[i] + h * v1[i] end
  return x1, v1
end

local function zeros(n)
  local f, K = {}, {}
  for i = 1, n do f[i], K[i] = 0, {}; for j = 1, n do K[i][j] = 0 end end
  return f, K
end

-- lumped masses: density * area / 3 per triangle corner
local function masses(mesh, density)
  local m = {}
  for i = 1, mesh.nv do m[i] = 0 end
  for t = 1, mesh.nt do
    local a, b, c = mesh:triangle(t)
    local ua, va = mesh:uv(a)
    local ub, vb = mesh:uv(b)
    local uc, vc = mesh:uv(c)
    local area = math.abs((ub - ua) * (vc - va) - (uc - ua) * (vb - va)) / 2
    for _, i in ipairs({a, b, c}) do m[i] = m[i] + density * area / 3 end
  end
  return m
end

local function max_diff(a, b) local e = 0 for i = 1, #a do e = math.max(e, math.abs(a[i] - b[i])) end return e end
print("Lesson 502: backward Euler by hand")
-- 1. One spring. A 2 x 2 grid of width 1 gives four particles; a spring (L = 1, the (u,v)
-- distance) joins 1 and 2, particles 3 and 4 are pinned and nothing else acts.
local spring = cc.condition("spring", "linear")
local ks, h, density = 200, 0.05, 0.1
local mesh = cc.grid(2, 2, 1, 1)
mesh:set_position(2, 1.3, 0.2, 0.1)
local m = masses(mesh, density)
local x, v = mesh:positions(), {0, 0, 0,  0.5, -0.2, 0,  0, 0, 0,  0, 0, 0}
local function spring_forces(y)
  local f, K = zeros(#y)
  add_element(f, K, spring, y, {1, 2}, {rest = 1}, ks)
  return f, K
end
local free = {true, true, true, true, true, true, false, false, false, false, false, false}   -- particles 1, 2
local x1, v1 = backward_euler(x, v, m, h, spring_forces, free)

local params = {k_stretch = 0, k_shear = 0, k_bend = 0, d_stretch = 0, d_shear = 0, d_bend = 0,
                gravity = {0, 0, 0}, density = density, h = h, cg_tol = 1e-14, stretch_limit = 1e9}
local sim = cc.sim(mesh, params)
sim:pin(3); sim:pin(4)
sim:add_condition(spring, {{1, 2}}, ks)
local x1r = backward_euler(x, (zeros(12)), m, h, spring_forces, free)   -- the simulator starts from rest
assert(sim:step())
local spring_diff = max_diff(sim:positions(), x1r)
print(string.format("  spring (k = %g, h = %g), from rest: hand step vs simulator step, largest difference %.1e",
                    ks, h, spring_diff))
print(string.format("  with v0: particle 2 moves from (%.3f, %.3f, %.3f) to (%.4f, %.4f, %.4f)",
                    x[4], x[5], x[6], x1[4], x1[5], x1[6]))

-- many steps: the spring's energy under explicit Euler (x += h v, v += h f/m) and backward
-- Euler. For a linear oscillator of frequency omega (here omega^2 = k (1/m1 + 1/m2) along the
-- spring) one step multiplies the energy by 1 + (h omega)^2 (explicit) or 1/(1 + (h omega)^2)
-- (backward): explicit Euler gains energy at any step, backward Euler loses it.
local omega = math.sqrt(ks * (1 / m[1] + 1 / m[2]))
local he, steps = 0.5 / omega, 40
local function energy(y, w)
  local E = 0
  for i = 1, 2 do for s = 1, 3 do E = E + 0.5 * m[i] * w[3 * (i - 1) + s] ^ 2 end end
  local C = spring:eval({table.unpack(y, 1, 6)}, {rest = 1}).value[1]
  return E + 0.5 * ks * C * C
end
local t, e_be, e_ex = {}, {}, {}
local xb, vb, xe, ve = {table.unpack(x)}, {table.unpack(v)}, {table.unpack(x)}, {table.unpack(v)}
local E0 = energy(x, v)
for n = 0, steps do
  t[#t + 1], e_be[#e_be + 1], e_ex[#e_ex + 1] = n * he, energy(xb, vb) / E0, energy(xe, ve) / E0
  xb, vb = backward_euler(xb, vb, m, he, spring_forces, free)
  local f = spring_forces(xe)
  for i = 1, 6 do
    xe[i] = xe[i] + he * ve[i]
    ve[i] = ve[i] + he * f[i] / m[(i - 1) // 3 + 1]
  end
end
local grow = (1 + (he * omega) ^ 2) ^ steps
print(string.format("  h omega = %.2f, %d steps: energy x %.3g (explicit Euler), x %.3g (backward Euler); " ..
                    "a linear oscillator: x %.3g and x %.3g", he * omega, steps, e_ex[#e_ex], e_be[#e_be], grow, 1 / grow))

-- 2. A 3 x 3 cloth, stretched by 10 % in x, under stretch, shear and gravity, nothing pinned
local cloth = cc.grid(3, 3, 1, 1)
for i = 1, cloth.nv do
  local px, py, pz = cloth:position(i)
  cloth:set_position(i, 1.1 * px, py, pz + 0.05 * px * py)
end
local cp = {k_stretch = 50, k_shear = 5, k_bend = 0, d_stretch = 0, d_shear = 0, d_bend = 0,
            gravity = {0, 0, -9.81}, density = density, h = 0.01, cg_tol = 1e-14, stretch_limit = 1e9,
            area_power = 0.75}
local stretch, shear = cc.condition("stretch", "bw98"), cc.condition("shear", "bw98")
local mc = masses(cloth, density)
local function cloth_forces(y)
  local f, K = zeros(#y)
  for t = 1, cloth.nt do
    local a, b, c = cloth:triangle(t)
    local ua, va = cloth:uv(a)
    local ub, vb = cloth:uv(b)
    local uc, vc = cloth:uv(c)
    local opts = {uv = {{ua, va}, {ub, vb}, {uc, vc}}, area_power = cp.area_power}
    add_element(f, K, stretch, y, {a, b, c}, opts, cp.k_stretch)
    add_element(f, K, shear, y, {a, b, c}, opts, cp.k_shear)
  end
  for i = 1, cloth.nv do f[3 * i] = f[3 * i] + mc[i] * cp.gravity[3] end
  return f, K
end
local all, xc = {}, cloth:positions()
for i = 1, 3 * cloth.nv do all[i] = true end
local xc1 = backward_euler(xc, (zeros(#xc)), mc, cp.h, cloth_forces, all)
local csim = cc.sim(cloth, cp)
assert(csim:step())
local cloth_diff, moved = max_diff(csim:positions(), xc1), max_diff(xc1, xc)
print(string.format("  3 x 3 cloth (27 unknowns), one step of h = %g: hand vs simulator %.1e (the step moves it %.1e)",
                    cp.h, cloth_diff, moved))

local drawn = cc.plot{dir = cc.outdir(), name = "energy", title = string.format("one spring, h omega = %.2f", he * omega),
  xlabel = "time (s)", ylabel = "energy / initial energy", logy = true, key = "top left",
  series = {{title = "explicit Euler", x = t, y = e_ex, with = "linespoints"},
            {title = "backward Euler", x = t, y = e_be, with = "linespoints"}}}
print(string.format("  plot: %s/energy.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))

assert(spring_diff < 1e-12, "the hand step is the simulator's step (spring)")
assert(cloth_diff < 1e-10 and moved > 1e-4, "the hand step is the simulator's step (cloth)")
assert(e_ex[#e_ex] > 0.1 * grow and e_ex[#e_ex] < 10 * grow, "explicit Euler gains about (1 + (h omega)^2) per step")
assert(e_be[#e_be] < 10 / grow and e_be[#e_be] > 0.1 / grow, "backward Euler loses about as much")
print("All checks passed.")
