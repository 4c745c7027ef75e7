-- Lesson 502 exercise: one backward Euler step of a spring between two particles, by hand.
--
-- Fill in the three functions below, then grade them:
--   clothcheck lesson 502 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 502 --check --hint 2   (a more specific hint for the first failing part)
--
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

-- TODO (1): the force Jacobian df/dx of the spring, 36 numbers: differentiate f = -k C dC/dx
function M.force_jacobian(x, k, L)
  local C, g, H = M.spring(x, L)
  -- your code here
  return nil
end

-- TODO (2): the backward Euler system of Baraff & Witkin (no damping):
--   A dv = b,  A = M - h^2 df/dx,  b = h (f0 + h df/dx v0)
-- with M the 6 x 6 diagonal mass matrix. Return A (36 numbers) and b (6 numbers).
function M.system(x, v, m, h, k, L)
  -- your code here: return A, b
  return nil
end

-- TODO (3): one step: solve for dv, then the new velocities and positions. Return x1, v1.
function M.step(x, v, m, h, k, L)
  -- your code here: return x1, v1
  return nil
end

return M
