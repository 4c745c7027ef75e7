-- A typical wrong answer to lesson 501: each particle damped by its own rate dC/dx_m . v_m.
-- Expected diagnosis: per-particle
--
-- 001 5.2's first form: the damping then drags on rigid motions and leaks a net force.

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
  local g = M.gradient(x)
  local d = {}
  for m = 0, 3 do
    local rate = 0
    for s = 1, 3 do rate = rate + g[3 * m + s] * v[3 * m + s] end
    for s = 1, 3 do d[3 * m + s] = -kd * g[3 * m + s] * rate end
  end
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
