-- A typical wrong answer to lesson 502: the spring's df/dx laid out axis-major.
-- Expected diagnosis: relabelled
--
-- -k (dC dC^T + C d2C) is right, but row and column 3 (m - 1) + s are stored at 2 (s - 1) + m
-- (x0.x, x1.x, x0.y, ...): the solver reads x, v and f particle by particle.

local cc = require "clothcheck"

local M = {}

-- C, dC/dx (6 numbers) and d2C/dx2 (rows: H[i][j]) of the spring, from the toolkit
function M.spring(x, L)
  local r = cc.condition("spring", "linear"):eval(x, {rest = L})
  return r.value[1], r.gradient[1], r.hessian[1]
end

-- the force f = -k C dC/dx, 6 numbers
function M.force(x, k, L)
  local C, g = M.spring(x, L)
  local f = {}
  for i = 1, 6 do f[i] = -k * C * g[i] end
  return f
end

-- the solution y of A y = b (A: 36 numbers row by row, b: 6), by Gaussian elimination
function M.solve(A, b)
  local n, R = #b, {}
  for i = 1, n do
    R[i] = {}
    for j = 1, n do R[i][j] = A[n * (i - 1) + j] end
    R[i][n + 1] = b[i]
  end
  for c = 1, n do
    local p = c
    for r = c + 1, n do if math.abs(R[r][c]) > math.abs(R[p][c]) then p = r end end
    R[c], R[p] = R[p], R[c]
    for r = c + 1, n do
      local f = R[r][c] / R[c][c]
      for j = c, n + 1 do R[r][j] = R[r][j] - f * R[c][j] end
    end
  end
  local y = {}
  for i = n, 1, -1 do
    local s = R[i][n + 1]
    for j = i + 1, n do s = s - R[i][j] * y[j] end
    y[i] = s / R[i][i]
  end
  return y
end

-- (1): df/dx = -k (dC/dx dC/dx^T + C d2C/dx2), the product rule on -k C dC/dx
function M.force_jacobian(x, k, L)
  local C, g, H = M.spring(x, L)
  local K = {}
  for i = 1, 6 do
    for j = 1, 6 do
      local function ax(r) return 2 * ((r - 1) % 3) + (r - 1) // 3 + 1 end
      K[6 * (ax(i) - 1) + ax(j)] = -k * (g[i] * g[j] + C * H[i][j])
    end
  end
  return K
end

-- (2): f(x0 + dx) = f0 + df/dx dx with dx = h (v0 + dv): the h df/dx v0 goes to the right side
function M.system(x, v, m, h, k, L)
  local K, f = M.force_jacobian(x, k, L), M.force(x, k, L)
  local A, b = {}, {}
  for i = 1, 6 do
    b[i] = f[i]
    for j = 1, 6 do
      A[6 * (i - 1) + j] = (i == j and m[(i - 1) // 3 + 1] or 0) - h * h * K[6 * (i - 1) + j]
      b[i] = b[i] + h * K[6 * (i - 1) + j] * v[j]
    end
    b[i] = h * b[i]
  end
  return A, b
end

-- (3): v1 = v0 + dv, and the positions move with the new velocity: x1 = x0 + h v1
function M.step(x, v, m, h, k, L)
  local dv = M.solve(M.system(x, v, m, h, k, L))
  local x1, v1 = {}, {}
  for i = 1, 6 do
    v1[i] = v[i] + dv[i]
    x1[i] = x[i] + h * v1[i]
  end
  return x1, v1
end

return M
