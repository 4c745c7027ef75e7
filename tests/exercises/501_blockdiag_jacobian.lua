-- A typical wrong answer to lesson 501: only the diagonal blocks of the velocity Jacobian.
-- Expected diagnosis: per-particle
--
-- C-dot of (58) depends on every particle's velocity, so dd/dv couples every pair of

-- particles: -k_d dC/dx_m dC/dx_n^T for all m, n.
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
  for i = 1, 12 do d[i] = -kd * g[i] * c end
  return d
end

-- (3): C-dot is linear in v with dC-dot/dv = dC/dx, so dd/dv = -k_d dC/dx dC/dx^T
function M.damping_jacobian(x, v, kd)
  local g = M.gradient(x)
  local J = {}
  for i = 1, 12 do
    for j = 1, 12 do J[12 * (i - 1) + j] = (i - 1) // 3 == (j - 1) // 3 and -kd * g[i] * g[j] or 0 end
  end
  return J
end

return M
