-- Lesson 505: checking an assembled system -- where a scatter-add went wrong, and what kind
--
-- Shows:      a 4 x 4 cloth's force f, df/dx, df/dv and Baraff & Witkin's A, b assembled in
--             plain Lua from per-triangle pieces (stretch, shear, damping) by scatter-add, then
--             with one mistake planted in one triangle: a block at the wrong vertex, a block not
--             transposed, the triangle summed twice, its Jacobian's sign, its off-diagonal blocks
--             left out. A small check in Lua (symmetry, row sums, df/dx against differences of f,
--             f against differences of E) sees that something is wrong; cc.check_system, the
--             engine of `clothcheck check-system`, also says where (the vertex block, the
--             triangle) and what kind.
-- Equations:  Baraff & Witkin's (15)-(16) as 001 5.2 and 003 3.2 write them,
--             A = M - h df/dv - h^2 df/dx, b = h (f + h df/dx v); stretch 001 (13)-(18),
--             shear (19)-(23), damping (58); E = k/2 C.C, f = -k dC^T C,
--             df/dx = -k (dC dC^T + C d2C).
-- Difficulty: 2 of 3
-- Run:        clothcheck lesson 505

local cc = require "clothcheck"
local TERMS = {{cc.condition("stretch", "bw98"), 50}, {cc.condition("shear", "bw98"), 5}}   -- condition, k
local K_D, DENSITY, H = 0.5, 0.1, 0.01
local mesh = cc.grid(4, 4, 1, 1)
local NV, N = mesh.nv, 3 * mesh.nv
local tris, rest, mass, count = {}, {}, {}, {}   -- count: triangles at each vertex
for i = 1, NV do mass[i], count[i] = 0, 0 end
for t = 1, mesh.nt do
  tris[t] = {mesh:triangle(t)}
  local uv = {}
  for p, i in ipairs(tris[t]) do uv[p] = {mesh:uv(i)} end
  rest[t] = {uv = uv}
  local area = math.abs((uv[2][1] - uv[1][1]) * (uv[3][2] - uv[1][2]) - (uv[3][1] - uv[1][1]) * (uv[2][2] - uv[1][2])) / 2
  for _, i in ipairs(tris[t]) do mass[i], count[i] = mass[i] + DENSITY * area / 3, count[i] + 1 end
end

-- one triangle at (x, v): its energy, force fe (9), df/dx Ke and df/dv De (9 x 9 rows), from
-- C, dC/dx, d2C/dx2 of the toolkit's stretch and shear conditions; damping -k_d dC (dC . v) (58)
local function element(x, v, t)
  local xe, ve = {}, {}
  for p, i in ipairs(tris[t]) do for s = 1, 3 do xe[3 * p - 3 + s], ve[3 * p - 3 + s] = x[3 * i - 3 + s], v[3 * i - 3 + s] end end
  local E, fe, Ke, De = 0, {}, {}, {}
  for I = 1, 9 do fe[I], Ke[I], De[I] = 0, {}, {}; for J = 1, 9 do Ke[I][J], De[I][J] = 0, 0 end end
  for _, term in ipairs(TERMS) do
    local r, k = term[1]:eval(xe, rest[t]), term[2]
    for c = 1, #r.value do
      local C, g, Hc, Cdot = r.value[c], r.gradient[c], r.hessian[c], 0
      for I = 1, 9 do Cdot = Cdot + g[I] * ve[I] end
      E = E + k / 2 * C * C
      for I = 1, 9 do
        fe[I] = fe[I] - k * C * g[I] - K_D * Cdot * g[I]
        for J = 1, 9 do
          Ke[I][J] = Ke[I][J] - k * (g[I] * g[J] + C * Hc[I][J])
          De[I][J] = De[I][J] - K_D * g[I] * g[J]
        end
      end
    end
  end
  return E, fe, Ke, De
end

local function matrix() local A = {} for i = 1, N do A[i] = {} for j = 1, N do A[i][j] = 0 end end return A end
-- The assembly: scatter-add each triangle's pieces at its vertices' rows and columns. Block
-- (p, q) of the element (rows of its vertex p, columns of its vertex q) goes to block (i, j) of
-- the cloth, i = tris[t][p], j = tris[t][q]. `mistake` plants one mistake in triangle BAD.
local BAD = 5
local function assemble(x, v, want, mistake)
  local E, f, K, D = 0, {}, want.df_dx or want.system, want.df_dv or want.system
  for i = 1, N do f[i] = 0 end
  K, D = K and matrix(), D and matrix()
  for t = 1, #tris do
    local Et, fe, Ke, De = element(x, v, t)
    local times = (t == BAD and mistake == "doubled") and 2 or 1
    E = E + Et
    for p, i in ipairs(tris[t]) do
      for s = 1, 3 do f[3 * i - 3 + s] = f[3 * i - 3 + s] + times * fe[3 * p - 3 + s] end
      for q, j in ipairs(tris[t]) do
        local row, sign = i, times   -- df/dx's row vertex and factor
        if t == BAD and mistake == "wrong-vertex" and p == 2 and q == 1 then row = tris[t][3] end
        if t == BAD and mistake == "sign" then sign = -1 end
        if t == BAD and mistake == "missing" and p ~= q then sign = 0 end
        for s = 1, 3 do for u = 1, 3 do
          local a, b = 3 * p - 3 + s, 3 * q - 3 + u
          if t == BAD and mistake == "no-transpose" and p > q then a, b = 3 * q - 3 + s, 3 * p - 3 + u end
          if K then K[3 * row - 3 + s][3 * j - 3 + u] = K[3 * row - 3 + s][3 * j - 3 + u] + sign * Ke[a][b] end
          if D then D[3 * i - 3 + s][3 * j - 3 + u] = D[3 * i - 3 + s][3 * j - 3 + u] + times * De[3 * p - 3 + s][3 * q - 3 + u] end
        end end
      end
    end
  end
  local out, zero = {energy = E, force = f, df_dx = K, df_dv = D, external = {}}, {}
  for i = 1, N do out.external[i], zero[i] = 0, 0 end   -- a cloth in space: no gravity
  if want.system then   -- (15)-(16)
    out.A, out.b = matrix(), {}
    for i = 1, N do
      local Kv = 0
      for j = 1, N do
        out.A[i][j] = (i == j and mass[(i - 1) // 3 + 1] or 0) - H * D[i][j] - H * H * K[i][j]
        Kv = Kv + K[i][j] * v[j]
      end
      out.b[i] = H * (f[i] + H * Kv)
    end
  end
  return out
end

local ALL = {energy = true, force = true, df_dx = true, df_dv = true, system = true}
local MISTAKES = {"right", "wrong-vertex", "no-transpose", "doubled", "sign", "missing"}
-- The lesson's own check at one perturbed state (v = 0): symmetry, the row sums (a translation),
-- df/dx d against central differences of f along d, f . d against -dE/dd
math.randomseed(505)
local x0, v0, d = mesh:positions(), {}, {}
for i = 1, N do x0[i], v0[i], d[i] = x0[i] + 0.03 * (2 * math.random() - 1), 0, 2 * math.random() - 1 end
local function own_check(mistake)
  local a = assemble(x0, v0, ALL, mistake)
  local K, top, sym, pair, rows, rowv = a.df_dx, 0, 0, {0, 0}, 0, 0
  for i = 1, N do for j = 1, N do top = math.max(top, math.abs(K[i][j])) end end
  for i = 1, N do
    local sum = {0, 0, 0}
    for j = 1, N do
      if math.abs(K[i][j] - K[j][i]) > sym then sym, pair = math.abs(K[i][j] - K[j][i]), {(i - 1) // 3 + 1, (j - 1) // 3 + 1} end
      sum[(j - 1) % 3 + 1] = sum[(j - 1) % 3 + 1] + K[i][j]
    end
    for s = 1, 3 do if math.abs(sum[s]) > rows then rows, rowv = math.abs(sum[s]), (i - 1) // 3 + 1 end end
  end
  local eps, xp, xm = 1e-5, {}, {}
  for i = 1, N do xp[i], xm[i] = x0[i] + eps * d[i], x0[i] - eps * d[i] end
  local p, m = assemble(xp, v0, {}, mistake), assemble(xm, v0, {}, mistake)
  local jac, jn, fd, ed = 0, 0, 0, (p.energy - m.energy) / (2 * eps)
  for i = 1, N do
    local Kd = 0
    for j = 1, N do Kd = Kd + K[i][j] * d[j] end
    jac, jn, fd = math.max(jac, math.abs(Kd - (p.force[i] - m.force[i]) / (2 * eps))), math.max(jn, math.abs(Kd)), fd + a.force[i] * d[i]
  end
  return {sym = sym / top, pair = pair, rows = rows / top, rowv = rowv, jac = jac / jn, force = math.abs(ed + fd) / math.abs(ed)}
end

print("Lesson 505: checking an assembled system (a 4 x 4 cloth, 16 vertices, 18 triangles)")
local alone = {}
for _, i in ipairs(tris[BAD]) do if count[i] == 1 then alone[#alone + 1] = i end end
print(string.format("  mistakes planted in triangle %d (vertices %d %d %d); in no other triangle: %s",
                    BAD, tris[BAD][1], tris[BAD][2], tris[BAD][3], #alone > 0 and "vertex " .. table.concat(alone, ", ") or "none"))
print("  (1) the lesson's own check, relative differences at a perturbed state:")
print(string.format("    %-13s %-21s %-21s %10s %10s", "assembly", "symmetry", "row sums", "df/dx", "f = -dE"))
local own = {}
for _, m in ipairs(MISTAKES) do
  local c = own_check(m); own[m] = c
  print(string.format("    %-13s %8.1e (%2d, %2d)     %8.1e (vertex %2d) %10.1e %10.1e", m, c.sym, c.pair[1], c.pair[2],
                      c.rows, c.rowv, c.jac, c.force))
end

print("  (2) cc.check_system, the engine of `clothcheck check-system`: the checks that fail, and a finding")
-- the first finding naming a kind, in this order (a block's other readings come after it)
local KINDS = {"transpose of the right block", "added at the wrong vertex", "summed twice", "a sign", "a term missing"}
local function named(r)
  for _, k in ipairs(KINDS) do for _, c in ipairs(r.checks) do for _, l in ipairs(c.findings) do
    if l:find(k, 1, true) then return (l:gsub(", hinge %d+ %([%d ]+%)", "")) end
  end end end
end
local reports = {}
for _, m in ipairs(MISTAKES) do
  local r = cc.check_system{mesh = mesh, provides = {"energy", "force", "df_dx", "df_dv", "system", "external"},
                            h = H, answer = function(x, v, _, want) return assemble(x, v, want, m) end}
  local failing = {}; reports[m] = r
  for _, c in ipairs(r.checks) do if c.gates and not c.pass then failing[#failing + 1] = string.format("%s %.1e", c.name, c.max_rel) end end
  print(string.format("    %-13s %s", m, r.failed and "FAILS: " .. table.concat(failing, ", ")
                                          or string.format("every check holds (%d states asked for)", r.evaluations)))
  if named(r) then print("      " .. named(r)) end
end

-- where each mistake sits in df/dx: the blocks (row vertex, column vertex) that differ
local right, panels = assemble(x0, v0, ALL, "right").df_dx, {}
for k = 2, #MISTAKES do
  local K, bx, by = assemble(x0, v0, ALL, MISTAKES[k]).df_dx, {}, {}
  for i = 1, NV do for j = 1, NV do
    local off = 0
    for s = 1, 3 do for u = 1, 3 do off = math.max(off, math.abs(K[3 * i - 3 + s][3 * j - 3 + u] - right[3 * i - 3 + s][3 * j - 3 + u])) end end
    if off > 1e-9 then bx[#bx + 1], by[#by + 1] = j, i end
  end end
  panels[#panels + 1] = {title = MISTAKES[k], xlabel = "column vertex", ylabel = "row vertex", key = "off",
                         xrange = {0.5, NV + 0.5}, yrange = {0.5, NV + 0.5},
                         series = {{title = "block differs", x = bx, y = by, with = "points pt 5 ps 1.5"}}}
end
local drawn = cc.plot{dir = cc.outdir(), name = "blocks", layout = {2, 3}, panels = panels,
                      title = string.format("df/dx blocks that differ from the right ones (mistakes in triangle %d)", BAD)}
print(string.format("  plot: %s/blocks.png%s", cc.outdir(), drawn and "" or " (gnuplot missing: data and .gp written)"))

local function finds(m, check, words)
  for _, line in ipairs(reports[m].checks[check].findings) do if line:find(words, 1, true) then return true end end
  return false
end
assert(not reports.right.failed and own.right.sym < 1e-12 and own.right.rows < 1e-12 and own.right.jac < 1e-6)
assert(own["no-transpose"].sym > 1e-3 and own["wrong-vertex"].rows > 1e-3 and own.missing.rows > 1e-3, "own checks see them")
assert(own.doubled.force > 1e-3 and own.doubled.jac < 1e-6, "doubled: f and df/dx agree, f and E do not")
assert(own.sign.jac > 1e-3 and own.sign.sym < 1e-12 and own.sign.rows < 1e-12, "sign: only the differences see it")
assert(finds("wrong-vertex", "df/dx", "a term added at the wrong vertex"), "the engine names the wrong vertex")
assert(finds("no-transpose", "df/dx", "transpose of the right block"), "the engine names the transpose")
assert(finds("doubled", "force = -grad E", "a term summed twice"), "the engine names the doubled term")
assert(finds("sign", "df/dx", "a sign"), "the engine names the sign")
assert(finds("missing", "df/dx", "a term missing"), "the engine names the missing blocks")
for _, m in ipairs(MISTAKES) do assert(m == "right" or reports[m].failed, m .. " fails the engine") end
print("All checks passed.")
