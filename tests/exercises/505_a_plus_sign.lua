-- A typical wrong answer to lesson 505: A = M - h df/dv + h^2 df/dx: the stiffness term added.
-- Expected diagnosis: sign
--
-- Backward Euler takes f(x1) ~ f + df/dx (x1 - x0), which moves to the left side with a minus.
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

-- (1): the triangle's vertex p is the cloth's vertex tri[p]; add, other triangles share it
function M.add_force(f, tri, fe)
  for p, i in ipairs(tri) do
    for s = 1, 3 do f[3 * i - 3 + s] = f[3 * i - 3 + s] + fe[3 * p - 3 + s] end
  end
  return f
end

-- (2): block (p, q) at the rows of tri[p] and the columns of tri[q]; for p < q also block
-- (q, p) = (p, q)^T at the rows of tri[q] and the columns of tri[p]
function M.add_blocks(K, tri, blocks)
  for p = 1, 3 do
    for q = p, 3 do
      local B, i, j = blocks[p][q], tri[p], tri[q]
      for s = 1, 3 do
        for u = 1, 3 do
          K[3 * i - 3 + s][3 * j - 3 + u] = K[3 * i - 3 + s][3 * j - 3 + u] + B[s][u]
          if p < q then K[3 * j - 3 + u][3 * i - 3 + s] = K[3 * j - 3 + u][3 * i - 3 + s] + B[s][u] end
        end
      end
    end
  end
  return K
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

-- (3): Baraff & Witkin (15)-(16): A = M - h df/dv - h^2 df/dx, b = h (f + h df/dx v)
function M.system(cloth, x, v, m, h)
  local _, f, Kx, Kv = M.assemble(cloth, x, v)
  local A, b = {}, {}
  for r = 1, 3 * cloth.n do
    A[r], b[r] = {}, f[r]
    for c = 1, 3 * cloth.n do
      A[r][c] = (r == c and m[(r - 1) // 3 + 1] or 0) - h * Kv[r][c] + h * h * Kx[r][c]
      b[r] = b[r] + h * Kx[r][c] * v[c]
    end
    b[r] = h * b[r]
  end
  return A, b
end

return M
