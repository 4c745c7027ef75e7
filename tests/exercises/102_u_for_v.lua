-- A typical wrong answer to lesson 102: grad_v copied from grad_u with its u left in place.
-- Expected diagnosis: component-swap
--
-- C_u = alpha (|w_u| - b_u). The length |w| changes with w along w^ = w/|w| (d|w| = w^ . dw),
-- and w_u moves with x_{m,s} by dw_ux/dx_mx along axis s ((5)-(8)), so
--   dC_u/dx_{m,s} = alpha dw_ux/dx_mx w^_{u,s}                                  (14)
-- and (16) is "the same for v" -- but the copy below still reads rest.dwu.

local M = {}

local function w_of(x, dw)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dw[m] * x[3 * (m - 1) + s] end
  end
  return w
end
M.w_of = w_of

function M.grad_u(x, rest)                                      -- (14)
  local w = w_of(x, rest.dwu)
  local len = math.sqrt(w[1] ^ 2 + w[2] ^ 2 + w[3] ^ 2)
  local g = {}
  for m = 1, 3 do
    for s = 1, 3 do g[3 * (m - 1) + s] = rest.alpha * rest.dwu[m] * w[s] / len end
  end
  return g
end

function M.grad_v(x, rest)                                      -- (16)
  local w = w_of(x, rest.dwu)
  local len = math.sqrt(w[1] ^ 2 + w[2] ^ 2 + w[3] ^ 2)
  local g = {}
  for m = 1, 3 do
    for s = 1, 3 do g[3 * (m - 1) + s] = rest.alpha * rest.dwu[m] * w[s] / len end
  end
  return g
end

return M
