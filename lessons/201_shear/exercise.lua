-- Lesson 201 exercise: the shear gradient, 001 (19)-(21), and its normalised form (A.5)-(A.6).
--
-- Fill in the two functions below, then grade them:   clothcheck lesson 201 --check
--
-- x is the triangle, 9 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9]. rest.alpha is the
-- area weight; rest.dwu = {dw_ux/dx_0x, dw_ux/dx_1x, dw_ux/dx_2x} of (6)-(8), rest.dwv of (10)-(12).
-- Each function returns the 9 numbers dC/dx_{m,s}: vertex m = 0, 1, 2, axis s = x, y, z.

local M = {}

-- w = sum_m dw_m x_m: w_u of (3) with rest.dwu, w_v of (4) with rest.dwv
local function w_of(x, dw)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dw[m] * x[3 * (m - 1) + s] end
  end
  return w
end
M.w_of = w_of

-- TODO (1): dC/dx_{m,s} for Baraff & Witkin's C = alpha w_u . w_v, 001 (21)
function M.grad_bw98(x, rest)
  local wu, wv = w_of(x, rest.dwu), w_of(x, rest.dwv)
  -- your code here
  return nil
end

-- TODO (2): dC/dx_{m,s} for the normalised C = alpha w^_u . w^_v, 001 (A.6) with (A.1)-(A.2)
function M.grad_normalized(x, rest)
  -- your code here
  return nil
end

return M
