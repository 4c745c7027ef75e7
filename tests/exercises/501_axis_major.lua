-- A typical wrong answer to lesson 501: the damping force written axis-major.
-- Expected diagnosis: relabelled
--
-- -k_d C-dot dC/dx is right, but entry 3 (m - 1) + s is stored at 4 (s - 1) + m: every
-- particle's x first. Forces go particle by particle, as positions do.

local cc = require "clothcheck"

local M = {}

-- dC/dx, 12 numbers, from the toolkit
function M.gradient(x) return cc.condition("bend", "pritchard-exact"):eval(x, {}).gradient[1] end

-- (1): C-dot = sum over all particles m of dC/dx_m . v_m (58), not one particle's term
function M.cdot(x, v)
  local g = M.gradient(x)
  local s = 0
  for i = 1, 12 do s = s + g[i] * v[i] end
  return s
end

-- (2): d = -k_d dC/dx C-dot, one C-dot for every particle
function M.damping_force(x, v, kd)
  local g, c = M.gradient(x), M.cdot(x, v)
  local d = {}
  for i = 1, 12 do d[4 * ((i - 1) % 3) + (i - 1) // 3 + 1] = -kd * g[i] * c end
  return d
end

-- (3): C-dot is linear in v with dC-dot/dv = dC/dx, so dd/dv = -k_d dC/dx dC/dx^T
function M.damping_jacobian(x, v, kd)
  local g = M.gradient(x)
  local J = {}
  for i = 1, 12 do
    for j = 1, 12 do J[12 * (i - 1) + j] = -kd * g[i] * g[j] end
  end
  return J
end

return M
