-- Lesson 402 exercise: the Taylor test, a check of a gradient and a Hessian by values alone.
--
-- Fill in the two functions below, then grade them:
--   clothcheck lesson 402 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 402 --check --hint 2   (a more specific hint for the first failing part)
--
-- C(y) is a condition's value at positions y (a list of numbers), g its claimed gradient at x
-- (a list), H its claimed Hessian at x (rows: H[i][j]), d a direction (a list like x).

local M = {}

-- x + e d
function M.along(x, d, e)
  local y = {}
  for i = 1, #x do y[i] = x[i] + e * d[i] end
  return y
end

-- TODO (1): the Taylor remainders at step e, two numbers:
--   r1 = |C(x + e d) - C(x) - e g.d|                     (O(e^2) when g is right)
--   r2 = |C(x + e d) - C(x) - e g.d - (second-order term)| (O(e^3) when H is right too)
function M.remainders(C, g, H, x, d, e)
  -- your code here: return r1, r2
  return nil
end

-- TODO (2): the observed order of r1 as e -> 0: with e = 2^-1, 2^-2, ..., 2^-20, the order of
-- one halving is log2(r1(e) / r1(e/2)); return the median of the last four (the smallest e).
-- About 2 means g is right; about 1 means it is wrong.
function M.observed_order(C, g, x, d)
  -- your code here
  return nil
end

return M
