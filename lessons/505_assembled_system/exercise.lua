-- Lesson 505 exercise: assemble a cloth's force, df/dx and Baraff & Witkin's system from its
-- triangles, as a simulator does.
--
-- Fill in the three functions marked TODO, then grade them:
--   clothcheck lesson 505 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 505 --check --hint 2   (a more specific hint for the first failing part)
--
-- The cloth: n vertices numbered from 1; x, v, f are lists of 3n numbers (vertex i's x, y, z at
-- 3i - 2, 3i - 1, 3i); a matrix of the cloth is a list of 3n rows of 3n numbers, K[r][c].
-- cloth = {n = n, tris = {{a, b, c}, ...}, uv = {{{u, v}, {u, v}, {u, v}}, ...}}.
-- A triangle's pieces (M.element) number its own vertices p = 1, 2, 3 (the cloth's tri[p]):
--   fe      its force, 9 numbers (its vertex p's x, y, z at 3p - 2, 3p - 1, 3p)
--   blocks  a 9 x 9 symmetric matrix stored once, as 3 x 3 blocks: blocks[p][q] for p <= q
--           only, the rows of its vertex p and the columns of its vertex q (blocks[p][q][s][u]);
--           the block (q, p) is the transpose of the block (p, q)

local cc = require "clothcheck"

local M = {}

M.TERMS = {{cc.condition("stretch", "bw98"), 50}, {cc.condition("shear", "bw98"), 5}}   -- condition, k
M.K_DAMP = 0.5

-- the cloth of a toolkit mesh (clothcheck.grid, clothcheck.read_obj)
function M.cloth(mesh)
  local cloth = {n = mesh.nv, tris = {}, uv = {}}
  for t = 1, mesh.nt do
    cloth.tris[t] = {mesh:triangle(t)}
    cloth.uv[t] = {}
    for p, i in ipairs(cloth.tris[t]) do cloth.uv[t][p] = {mesh:uv(i)} end
  end
  return cloth
end

-- triangle t at (x, v): its energy, force fe and the upper blocks of its df/dx and df/dv, from
-- C, dC/dx, d2C/dx2 of stretch (13)-(18) and shear (19)-(23): E = k/2 C^2, f = -k C dC/dx,
-- df/dx = -k (dC/dx dC/dx^T + C d2C/dx2); damping -k_d dC/dx Cdot with Cdot = dC/dx . v (58),
-- df/dv = -k_d dC/dx dC/dx^T
function M.element(cloth, x, v, t)
  local xe, ve = {}, {}
  for p, i in ipairs(cloth.tris[t]) do
    for s = 1, 3 do xe[3 * p - 3 + s], ve[3 * p - 3 + s] = x[3 * i - 3 + s], v[3 * i - 3 + s] end
  end
  local E, fe, Kx, Kv = 0, {}, {}, {}
  for I = 1, 9 do fe[I], Kx[I], Kv[I] = 0, {}, {}; for J = 1, 9 do Kx[I][J], Kv[I][J] = 0, 0 end end
  for _, term in ipairs(M.TERMS) do
    local r, k = term[1]:eval(xe, {uv = cloth.uv[t]}), term[2]
    for c = 1, #r.value do
      local C, g, H, Cdot = r.value[c], r.gradient[c], r.hessian[c], 0
      for I = 1, 9 do Cdot = Cdot + g[I] * ve[I] end
      E = E + k / 2 * C * C
      for I = 1, 9 do
        fe[I] = fe[I] - k * C * g[I] - M.K_DAMP * Cdot * g[I]
        for J = 1, 9 do
          Kx[I][J] = Kx[I][J] - k * (g[I] * g[J] + C * H[I][J])
          Kv[I][J] = Kv[I][J] - M.K_DAMP * g[I] * g[J]
        end
      end
    end
  end
  local function upper(K)   -- blocks[p][q], p <= q
    local blocks = {}
    for p = 1, 3 do
      blocks[p] = {}
      for q = p, 3 do
        blocks[p][q] = {}
        for s = 1, 3 do
          blocks[p][q][s] = {}
          for u = 1, 3 do blocks[p][q][s][u] = K[3 * p - 3 + s][3 * q - 3 + u] end
        end
      end
    end
    return blocks
  end
  return E, fe, upper(Kx), upper(Kv)
end

-- TODO (1): add the triangle's force fe (9 numbers) into the cloth's force f (3n numbers), at
-- the cloth's vertices tri = {a, b, c}; return f
function M.add_force(f, tri, fe)
  -- your code here
  return nil
end

-- TODO (2): add the triangle's df/dx blocks into the cloth's matrix K (3n rows of 3n): each
-- stored block (p, q), p <= q, and for p < q also the block (q, p) it stands for; return K
function M.add_blocks(K, tri, blocks)
  -- your code here
  return nil
end

-- the cloth's energy, f, df/dx and df/dv at (x, v): every triangle's pieces, through
-- M.add_force and M.add_blocks
function M.assemble(cloth, x, v)
  local n, E, f, Kx, Kv = 3 * cloth.n, 0, {}, {}, {}
  for r = 1, n do
    f[r], Kx[r], Kv[r] = 0, {}, {}
    for c = 1, n do Kx[r][c], Kv[r][c] = 0, 0 end
  end
  for t, tri in ipairs(cloth.tris) do
    local Et, fe, bx, bv = M.element(cloth, x, v, t)
    E = E + Et
    f = M.add_force(f, tri, fe) or f
    Kx = M.add_blocks(Kx, tri, bx) or Kx
    Kv = M.add_blocks(Kv, tri, bv) or Kv
  end
  return E, f, Kx, Kv
end

-- TODO (3): Baraff & Witkin's system (15)-(16) for the step h from (x, v), masses m (one per
-- vertex; the mass matrix is diagonal, m[i] three times):
--   A dv = b,  A = M - h df/dv - h^2 df/dx,  b = h (f + h df/dx v)
-- with f, df/dx, df/dv from M.assemble(cloth, x, v). Return A (3n rows of 3n) and b (3n).
function M.system(cloth, x, v, m, h)
  -- your code here: return A, b
  return nil
end

return M
