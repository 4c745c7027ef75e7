-- A typical wrong answer to lesson 103: the Hessian's rows and columns laid out axis-major.
-- Expected diagnosis: relabelled
-- Expected failing parts: 2
--
-- (15)'s entries are right, but row 3 (s - 1) + m holds vertex m's axis s (every x first),
-- and so do the columns: the layout is vertex-major, 3 (m - 1) + s. Part (2) builds on the
-- same Hessian, so its C d2C term is laid out the same way (right at rest, where C = 0).

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

-- (15), (17): alpha/|w| dw_m dw_n (delta_st - w^_s w^_t); only w^ = w/|w| depends on x, and
-- d w^/dw = (I - w^ w^T)/|w|
local function hessian(x, rest, dw)
  local w = w_of(x, dw)
  local len = math.sqrt(w[1] ^ 2 + w[2] ^ 2 + w[3] ^ 2)
  local H = {}
  for m = 1, 3 do for s = 1, 3 do
    for n = 1, 3 do for t = 1, 3 do
      local P = (s == t and 1 or 0) - w[s] * w[t] / len ^ 2
      H[9 * (3 * (s - 1) + m - 1) + 3 * (t - 1) + n] = rest.alpha / len * dw[m] * dw[n] * P
    end end
  end end
  return H
end

-- (1): 001 (15)
function M.hessian_u(x, rest) return hessian(x, rest, rest.dwu) end

-- (2): d2E = sum_k (dC_k dC_k^T + C_k d2C_k), k = u, v: the product rule on C_k dC_k/dx
function M.energy_hessian(x, rest)
  local K = {}
  for i = 1, 81 do K[i] = 0 end
  for _, c in ipairs({{rest.dwu, rest.bu}, {rest.dwv, rest.bv}}) do
    local dw, b = c[1], c[2]
    local w = w_of(x, dw)
    local C = rest.alpha * (math.sqrt(w[1] ^ 2 + w[2] ^ 2 + w[3] ^ 2) - b)
    local g, H = M.gradient(x, rest, dw), hessian(x, rest, dw)
    for i = 1, 9 do
      for j = 1, 9 do
        local ij = 9 * (i - 1) + j
        K[ij] = K[ij] + g[i] * g[j] + C * H[ij]
      end
    end
  end
  return K
end

return M
