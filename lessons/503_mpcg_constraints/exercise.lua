-- Lesson 503 exercise: the constraint filter and the MPCG loop of Baraff & Witkin 5.3, with
-- Ascher & Boxerman's initiation.
--
-- Fill in the two functions below, then grade them:
--   clothcheck lesson 503 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 503 --check --hint 2   (a more specific hint for the first failing part)
--
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

-- TODO (1): the filter block S_i, 9 numbers row by row, of a vertex that is
--   "free" (moves freely), "pinned" (cannot move), "plane" (slides in the plane whose normal
--   is dir), "line" (slides along the direction dir). dir need not be a unit vector.
-- S_i keeps the part of a vector the vertex is free to change.
function M.filter_block(kind, dir)
  -- your code here
  return nil
end

-- TODO (2): MPCG: dv with (I - S) dv = (I - S) z exactly and S (b - A dv) small: stop when
-- delta = r^T P^-1 r (r the filtered residual, P^-1 = M.jacobi) falls to tol^2 delta0, with
-- delta0 measured as Ascher & Boxerman do -- on the filtered residual of the starting guess
-- dv = z, with the same P^-1. Return dv and the number of iterations.
function M.mpcg(A, b, z, S, tol)
  local dv = {table.unpack(z)}
  -- your code here: r, c, delta0, delta; then the loop
  return nil
end

return M
