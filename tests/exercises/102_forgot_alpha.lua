-- A typical wrong answer to lesson 102: the area weight alpha of (14) left out.
-- Expected diagnosis: proportional
-- Expected failing parts: 2
-- C_u = alpha (|w_u| - b_u). The length |w| changes with w along w^ = w/|w| (d|w| = w^ . dw),
-- and w_u moves with x_{m,s} by dw_ux/dx_mx along axis s ((5)-(8)), so
--   dC_u/dx_{m,s} = alpha dw_ux/dx_mx w^_{u,s}                                  (14)

local M = {}

local function w_of(x, dw)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dw[m] * x[3 * (m - 1) + s] end
  end
  return w
end
M.w_of = w_of

-- alpha dw_m w^_s for m = 0..2, s = x, y, z
local function chain(x, rest, dw)
  local w = w_of(x, dw)
  local len = math.sqrt(w[1] ^ 2 + w[2] ^ 2 + w[3] ^ 2)
  local g = {}
  for m = 1, 3 do
    for s = 1, 3 do g[3 * (m - 1) + s] = dw[m] * w[s] / len end
  end
  return g
end

function M.grad_u(x, rest) return chain(x, rest, rest.dwu) end   -- (14)
function M.grad_v(x, rest) return chain(x, rest, rest.dwv) end   -- (16)

return M
