-- Lesson 104: the area weight alpha = a^p and scale invariance
--
-- Shows:      what happens to stretch energies and forces when every triangle of a grid is
--             split 1-to-4, for Baraff & Witkin's p = 1, Pritchard's p = 0.75 (001 5.2) and
--             the thesis's p = 0.5 (003 3.1). Measures total energy, the force one triangle
--             puts on a vertex, and the net force on a vertex, against gravity per particle.
-- Equations:  Pritchard 001 (13), Section 5.2; 003 Section 3.1 (sqrt(a) conditions, (3.1)).
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 104

local cc = require "clothcheck"

local stretch = cc.condition("stretch", "bw98")

-- A smooth, non-uniform stretch of the unit square: x = u + 0.3 u^2, y = v + 0.1 v^2, z = 0.
-- The strain varies across the square, so interior vertices feel a net force.
local function deform(u, v) return u + 0.3 * u * u, v + 0.1 * v * v, 0 end

-- Stretch energy E = 1/2 sum |C|^2 (k = 1) on an n x n grid, and forces f = -sum dC^T C.
-- Returns the total energy, the net force on the vertex at (u,v) = (0.5, 0.5) (length of the
-- sum over its triangles), and the largest force that a single triangle puts on that vertex.
local function measure(n, p)
  local mesh = cc.grid(n, n, 1.0, 1.0)
  local centre
  for i = 1, mesh.nv do
    local u, v = mesh:uv(i)
    mesh:set_position(i, deform(u, v))
    if math.abs(u - 0.5) < 1e-12 and math.abs(v - 0.5) < 1e-12 then centre = i end
  end
  assert(centre, "the grid must have a vertex at (0.5, 0.5): use an odd n")
  local energy, net, single = 0, {0, 0, 0}, 0
  for t = 1, mesh.nt do
    local tri = { mesh:triangle(t) }
    local x, uv = {}, {}
    for m = 1, 3 do
      x[m] = { mesh:position(tri[m]) }
      uv[m] = { mesh:uv(tri[m]) }
    end
    local r = stretch:eval(x, { uv = uv, area_power = p })
    energy = energy + 0.5 * (r.value[1]^2 + r.value[2]^2)
    for m = 1, 3 do
      if tri[m] == centre then
        local f = {0, 0, 0}
        for s = 1, 3 do
          for k = 1, 2 do f[s] = f[s] - r.gradient[k][3 * (m - 1) + s] * r.value[k] end
          net[s] = net[s] + f[s]
        end
        single = math.max(single, math.sqrt(f[1]^2 + f[2]^2 + f[3]^2))
      end
    end
  end
  return energy, math.sqrt(net[1]^2 + net[2]^2 + net[3]^2), single
end

-- Gravity on a particle is its mass: density times the area around it, which a 1-to-4 split
-- divides by 4. The n x n grid has cells of side 1/(n-1); splitting gives 2n-1 vertices a side.
local coarse, fine = 9, 17
local gravity_ratio = ((1 / (fine - 1)) / (1 / (coarse - 1)))^2

print("Lesson 104: area weight alpha = a^p under a 1-to-4 split")
print(string.format("  grids %dx%d -> %dx%d vertices; gravity per particle changes by %.3f", coarse, coarse,
                    fine, fine, gravity_ratio))
print("    p     energy ratio   one triangle's force   net force on centre vertex")
print("          (fine/coarse)  ratio (001 5.2 counts)  ratio (balances gravity)")

local results = {}
for _, p in ipairs({1.0, 0.75, 0.5}) do
  local e1, n1, s1 = measure(coarse, p)
  local e2, n2, s2 = measure(fine, p)
  results[p] = { energy = e2 / e1, single = s2 / s1, net = n2 / n1 }
  print(string.format("  %4.2f   %10.4f      %10.4f              %10.4f", p, e2 / e1, s2 / s1, n2 / n1))
end

-- Energy of a smooth deformation: each child has a quarter of the area, so C^2 ~ a^(2p)
-- gives 4 * (1/4)^(2p) = 4^(1 - 2p) of the parent's energy: 1/4, 1/2, 1.
local function near(a, b, tol) return math.abs(a - b) <= tol * math.abs(b) end
assert(near(results[1.0].energy, 0.25, 0.02), "p = 1: total energy drops to a quarter")
assert(near(results[0.75].energy, 0.5, 0.02), "p = 0.75: total energy halves")
assert(near(results[0.5].energy, 1.0, 0.02), "p = 0.5: total energy does not depend on the mesh")
-- One triangle's force ~ alpha^2 / edge ~ a^(2p - 1/2): 1/8, 1/4, 1/2. This is 001 5.2's count.
-- (The smaller triangles sample the strain closer to the vertex, hence a few per cent off.)
assert(near(results[1.0].single, 1 / 8, 0.1) and near(results[0.75].single, 1 / 4, 0.1),
       "per triangle, forces fall by 8 (p = 1) and by 4 (p = 0.75), as 001 5.2 says")
assert(near(results[0.5].single, 1 / 2, 0.1), "per triangle, p = 0.5 forces halve")
-- The net force is a difference between neighbouring triangles, one more factor of the edge:
-- a^(2p): 1/16, 1/8, 1/4. Only p = 0.5 keeps pace with gravity (1/4).
assert(near(results[1.0].net, 1 / 16, 0.1) and near(results[0.75].net, 1 / 8, 0.1),
       "net forces fall by 16 (p = 1) and 8 (p = 0.75)")
assert(near(results[0.5].net, gravity_ratio, 0.1), "with p = 0.5 the net force scales like gravity")

print("  Measured: only p = 0.5 keeps total energy unchanged and the net force in step with")
print("  gravity. p = 0.75 matches gravity only in the force of a single triangle (001 5.2's")
print("  argument); neighbouring triangles' forces cancel to leading order, so the net force")
print("  holding the cloth up still halves relative to gravity at every split.")

-- the picture: net force on the centre vertex over the gravity on a particle (mass ~ cell
-- area), relative to the coarsest grid, as the grid is refined
local sides, series = {5, 9, 17, 33}, {}
for _, p in ipairs({1.0, 0.75, 0.5}) do
  local xs, ys, first = {}, {}, nil
  for _, n in ipairs(sides) do
    local _, net = measure(n, p)
    local ratio = net / (1 / (n - 1)) ^ 2
    first = first or ratio
    xs[#xs + 1], ys[#ys + 1] = n - 1, ratio / first
  end
  series[#series + 1] = {title = string.format("alpha = a^{%g}", p), x = xs, y = ys, with = "linespoints"}
end
local drawn = cc.plot{dir = cc.outdir(), name = "refinement", title = "net stretch force on a vertex / its gravity, as the grid is refined",
  xlabel = "cells per side", ylabel = "relative to the 4 x 4 grid", logx = true, logy = true, key = "bottom left",
  series = series}
print(string.format("  plot: %s/refinement.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))
print("All checks passed.")
