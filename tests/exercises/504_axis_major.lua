-- A typical wrong answer to lesson 504: the stiffness laid out axis-major.
-- Expected diagnosis: relabelled
--
-- k (dC dC^T + C d2C) is right in every mode, but row and column 3 (m - 1) + s are stored at
-- 3 (s - 1) + m, every vertex's x first.

local M = {}

-- (1): d2E = k (dC dC^T + C d2C): the second term goes in full, never (Gauss-Newton), or only
-- where C >= 0 (clamp: a compressed element, C < 0, is where C d2C curves the energy down)
function M.stiffness(C, g, H, k, mode)
  local n, K = #g, {}
  local keep = mode == "full" or (mode == "clamp" and C >= 0)
  for i = 1, n do
    for j = 1, n do
      local function ax(r) return 3 * ((r - 1) % 3) + (r - 1) // 3 + 1 end
      K[n * (ax(i) - 1) + ax(j)] = k * (g[i] * g[j] + (keep and C * H[i][j] or 0))
    end
  end
  return K
end

-- (2): cyclic Jacobi: a rotation in the (p, q) plane zeroes S_pq; sweeps until the off-diagonal
-- part is negligible; the diagonal is then the spectrum
function M.smallest_eigenvalue(S)
  local n, A = #S, {}
  for i = 1, n do A[i] = {table.unpack(S[i])} end
  local scale = 0
  for i = 1, n do for j = 1, n do scale = math.max(scale, math.abs(A[i][j])) end end
  for _ = 1, 100 do
    local off = 0
    for p = 1, n do for q = p + 1, n do off = off + A[p][q] ^ 2 end end
    if off <= (1e-15 * scale) ^ 2 then break end
    for p = 1, n do for q = p + 1, n do
      if A[p][q] ~= 0 then
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
  local m = math.huge
  for i = 1, n do m = math.min(m, A[i][i]) end
  return m
end

return M
