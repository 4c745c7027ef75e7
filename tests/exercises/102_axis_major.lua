-- A typical wrong answer to lesson 102: the gradient's entries laid out axis-major.
-- Expected diagnosis: relabelled
-- Expected failing parts: 2
--
-- The numbers of (14) are right, but written x of every vertex first, then every y, then
-- every z: entry 3 (s - 1) + m instead of 3 (m - 1) + s.

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
    for s = 1, 3 do g[3 * (s - 1) + m] = rest.alpha * dw[m] * w[s] / len end
  end
  return g
end

function M.grad_u(x, rest) return chain(x, rest, rest.dwu) end   -- (14)
function M.grad_v(x, rest) return chain(x, rest, rest.dwv) end   -- (16)

return M
