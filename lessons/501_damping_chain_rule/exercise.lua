-- Lesson 501 exercise: damping by the whole chain rule, 001 (58), and its velocity Jacobian.
--
-- Fill in the three functions below, then grade them:
--   clothcheck lesson 501 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 501 --check --hint 2   (a more specific hint for the first failing part)
--
-- One bend element (pritchard-exact, lesson 302): x and v are its four particles' positions
-- and velocities, 12 numbers each (particle 0 x, y, z, then particle 1, ...). The damping
-- force is d = -k_d dC/dx C-dot (Baraff & Witkin's damping, as 003 3.1 quotes it).

local cc = require "clothcheck"

local M = {}

-- dC/dx, 12 numbers, from the toolkit
function M.gradient(x) return cc.condition("bend", "pritchard-exact"):eval(x, {}).gradient[1] end

-- TODO (1): C-dot = dC/dt of C(x(t)) when x moves with velocity v, 001 (58): one number
function M.cdot(x, v)
  local g = M.gradient(x)
  -- your code here
  return nil
end

-- TODO (2): the damping force d = -k_d dC/dx C-dot on the four particles: 12 numbers
function M.damping_force(x, v, kd)
  -- your code here
  return nil
end

-- TODO (3): the velocity Jacobian dd/dv of that force, 12 x 12 as 144 numbers row by row
-- (entry (i, j) = dd_i/dv_j at index 12 (i - 1) + j): the block the implicit step of
-- Baraff & Witkin 5.2 puts beside the mass matrix
function M.damping_jacobian(x, v, kd)
  -- your code here
  return nil
end

return M
