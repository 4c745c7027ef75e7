-- A typical wrong answer to lesson 502: df/dx without its C d2C/dx2 term.
-- Expected diagnosis: off-rest
-- Expected step: f = -k C dC/dx
--
-- Right at rest length, where C = 0; wrong whenever the spring is stretched or compressed.
-- x, v: the two particles' positions and velocities, 6 numbers each (particle 0 x, y, z, then
-- particle 1). m = {m0, m1}. The spring: C = |x0 - x1| - L (004), E = k/2 C^2, f = -k C dC/dx.
-- Matrices are lists of 36 numbers, row by row: entry (i, j) at 6 (i - 1) + j.

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
    for j = 1, 6 do K[6 * (i - 1) + j] = -k * g[i] * g[j] end
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
