-- Lesson 103 exercise: the stretch Hessian (15) and the energy Hessian it goes into (18).
--
-- Fill in the two functions below, then grade them:
--   clothcheck lesson 103 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 103 --check --hint 2   (a more specific hint for the first failing part)
--
-- x is the triangle's positions, 9 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9].
-- rest is its rest data: rest.alpha (the area weight a^p), rest.bu, rest.bv, and
-- rest.dwu = {dw_ux/dx_0x, dw_ux/dx_1x, dw_ux/dx_2x} of (6)-(8), rest.dwv likewise (10)-(12).
-- Each function returns a 9 x 9 matrix as one list of 81 numbers, row by row:
-- entry (i, j) is H[9 * (i - 1) + j], with i = 3 m + s for vertex m = 0..2, axis s = 1..3.

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

-- the gradient (14) of C_u = alpha (|w_u| - b_u) (or of C_v with rest.dwv), 9 numbers
function M.gradient(x, rest, dw)
  local w = w_of(x, dw)
  local len = math.sqrt(w[1] ^ 2 + w[2] ^ 2 + w[3] ^ 2)
  local g = {}
  for m = 1, 3 do
    for s = 1, 3 do g[3 * (m - 1) + s] = rest.alpha * dw[m] * w[s] / len end
  end
  return g
end

-- TODO (1): d2C_u/dx_{m,s} dx_{n,t}, 001 (15): 81 numbers, row (m,s), column (n,t)
function M.hessian_u(x, rest)
  local w = w_of(x, rest.dwu)
  -- your code here
  return nil
end

-- TODO (2): the Hessian of the energy E = 1/2 (C_u^2 + C_v^2), 81 numbers: differentiate
-- dE/dx = C_u dC_u/dx + C_v dC_v/dx once more (the sum 001 (18) assembles, with k = 1).
-- C_u = alpha (|w_u| - rest.bu); M.gradient and M.hessian_u are yours to use (for the v
-- part, write the v version of (15) as (17), or generalise hessian_u).
function M.energy_hessian(x, rest)
  -- your code here
  return nil
end

return M
