-- A typical wrong answer to lesson 503: Baraff & Witkin's s = P^-1 r, and c = s + beta c unfiltered.
-- Expected diagnosis: filter
-- Expected step: (I - S) dv = (I - S) z
--
-- Jacobi's P^-1 turns a residual in a slanted sliding plane out of it; only the filter on c
-- keeps the search direction, and so dv, inside the free directions.

-- Vectors are lists of 3 nv numbers (vertex 0 x, y, z, then vertex 1, ...); A is a list of
-- rows (A[r][c]); S is a table of per-vertex 3 x 3 blocks, S[v] = 9 numbers row by row, v = 0..nv-1.

local M = {}

function M.dot(p, q) local s = 0 for i = 1, #p do s = s + p[i] * q[i] end return s end
-- a p + q
function M.axpy(a, p, q) local o = {} for i = 1, #p do o[i] = a * p[i] + q[i] end return o end
function M.mul(A, y)
  local o = {}
  for r = 1, #y do local s = 0 for c = 1, #y do s = s + A[r][c] * y[c] end o[r] = s end
  return o
end
-- S r: each vertex's 3-vector times its block S[v]
function M.filter(S, r)
  local o = {}
  for v = 0, #r // 3 - 1 do
    local s = S[v]
    for a = 1, 3 do o[3 * v + a] = s[3 * a - 2] * r[3 * v + 1] + s[3 * a - 1] * r[3 * v + 2] + s[3 * a] * r[3 * v + 3] end
  end
  return o
end
-- Jacobi: P^-1 r = r / diag(A)
function M.jacobi(A, r) local o = {} for i = 1, #r do o[i] = r[i] / A[i][i] end return o end

-- (1): S_i keeps what the vertex may change: all (I), nothing (0), all but the normal
-- (I - p p^T), only the direction (d d^T), with p, d unit vectors
function M.filter_block(kind, dir)
  if kind == "free" then return {1, 0, 0, 0, 1, 0, 0, 0, 1} end
  if kind == "pinned" then return {0, 0, 0, 0, 0, 0, 0, 0, 0} end
  local l = math.sqrt(dir[1] ^ 2 + dir[2] ^ 2 + dir[3] ^ 2)
  local u, S = {dir[1] / l, dir[2] / l, dir[3] / l}, {}
  for a = 1, 3 do
    for c = 1, 3 do
      local uu = u[a] * u[c]
      S[3 * (a - 1) + c] = kind == "plane" and (a == c and 1 or 0) - uu or uu
    end
  end
  return S
end

-- (2): every vector that updates dv or r is filtered, so the constrained part of dv stays z
function M.mpcg(A, b, z, S, tol)
  local dv = {table.unpack(z)}
  local r = M.filter(S, M.axpy(-1, M.mul(A, dv), b))          -- S (b - A z)
  local c = M.filter(S, M.jacobi(A, r))
  local delta = M.dot(r, c)
  local delta0, it = delta, 0                                  -- Ascher & Boxerman
  while delta > tol * tol * delta0 and it < 10 * #b do
    local q = M.filter(S, M.mul(A, c))
    local alpha = delta / M.dot(c, q)
    dv, r = M.axpy(alpha, c, dv), M.axpy(-alpha, q, r)
    local s = M.jacobi(A, r)
    local dnew = M.dot(r, s)
    c = M.axpy(dnew / delta, c, s)
    delta, it = dnew, it + 1
  end
  return dv, it
end

return M
