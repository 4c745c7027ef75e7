-- Lesson 102 exercise: the stretch gradient by the chain rule, 001 (14) and (16).
--
-- Fill in the two functions below, then grade them:
--   clothcheck lesson 102 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 102 --check --hint 2   (a more specific hint for the first failing part)
--
-- x is the triangle's positions, 9 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9].
-- rest is its rest data: rest.alpha (the area weight a^p), rest.bu, rest.bv, and
-- rest.dwu = {dw_ux/dx_0x, dw_ux/dx_1x, dw_ux/dx_2x} of (6)-(8), rest.dwv likewise (10)-(12).
-- Each function returns the 9 numbers dC/dx_{m,s}: vertex m = 0, 1, 2, axis s = x, y, z.

local M = {}

-- w = sum_m dw_m x_m: w_u of (3) when dw = rest.dwu, w_v of (4) when dw = rest.dwv
local function w_of(x, dw)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dw[m] * x[3 * (m - 1) + s] end
  end
  return w
end
M.w_of = w_of

-- TODO (1): dC_u/dx_{m,s} for C_u = alpha (|w_u| - b_u), 001 (14)
function M.grad_u(x, rest)
  local w = w_of(x, rest.dwu)
  -- your code here: return {dC_u/dx_0x, dC_u/dx_0y, dC_u/dx_0z, dC_u/dx_1x, ..., dC_u/dx_2z}
  return nil
end

-- TODO (2): dC_v/dx_{m,s} for C_v = alpha (|w_v| - b_v), 001 (16)
function M.grad_v(x, rest)
  -- your code here
  return nil
end

return M
