-- A typical wrong answer to lesson 501: C-dot as one particle's rate, dC/dx_0 . v_0, not (58)'s sum.
-- Expected diagnosis: per-particle

local cc = require "clothcheck"

local M = {}

-- dC/dx, 12 numbers, from the toolkit
function M.gradient(x) return cc.condition("bend", "pritchard-exact"):eval(x, {}).gradient[1] end

-- (1): C-dot as the rate of particle 0 alone, dC/dx_0 . v_0
function M.cdot(x, v)
  local g = M.gradient(x)
  local s = 0
  for i = 1, 3 do s = s + g[i] * v[i] end
  return s
end

-- (2): d = -k_d dC/dx C-dot, one C-dot for every particle
function M.damping_force(x, v, kd)
  local g, c = M.gradient(x), M.cdot(x, v)
  local d = {}
  for i = 1, 12 do d[i] = -kd * g[i] * c end
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
