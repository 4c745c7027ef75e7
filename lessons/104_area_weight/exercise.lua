-- Lesson 104 exercise: the force of the stretch condition on a vertex, and the area power
-- that makes a cloth's energy independent of its mesh, 001 (13), 5.2 and 003 3.1.
--
-- Fill in the blanks below, then grade them:
--   clothcheck lesson 104 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 104 --check --hint 2   (a more specific hint for the first failing part)

local M = {}

-- TODO (1): the force of one condition with stiffness k on vertex m (0, 1 or 2), from the
-- energy E = k/2 |C|^2: f_m = -dE/dx_m. C is the list of the condition's components and dC
-- their gradients (dC[c][3m + s] = dC_c/dx_{m,s}, s = 1..3), as cond:eval returns them.
-- Return {f_x, f_y, f_z}.
function M.force(C, dC, k, m)
  -- your code here
  return nil
end

-- TODO (2): the area power p in alpha = a^p for which the stretch energy of a smoothly
-- deformed cloth does not change when every triangle is split 1-to-4 (area a -> a/4,
-- four times as many triangles).
M.p = nil

return M
