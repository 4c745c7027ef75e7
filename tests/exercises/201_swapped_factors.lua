-- A typical wrong answer to lesson 201: (21) with the factors of the product rule exchanged.
-- Expected diagnosis: component-swap
--
-- d(w_u . w_v) = dw_u . w_v + w_u . dw_v; below, each dw is paired with its own w instead
-- (alpha (dwu_m w_u,s + w_v,s dwv_m)), which is the gradient of alpha (|w_u|^2 + |w_v|^2)/2.

local M = {}

local function w_of(x, dw)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dw[m] * x[3 * (m - 1) + s] end
  end
  return w
end
M.w_of = w_of

function M.grad_bw98(x, rest)
  local wu, wv = w_of(x, rest.dwu), w_of(x, rest.dwv)
  local g = {}
  for m = 1, 3 do
    for s = 1, 3 do g[3 * (m - 1) + s] = rest.alpha * (rest.dwu[m] * wu[s] + wv[s] * rest.dwv[m]) end
  end
  return g
end

function M.grad_normalized(x, rest)
  local wu, wv = w_of(x, rest.dwu), w_of(x, rest.dwv)
  local lu = math.sqrt(wu[1] ^ 2 + wu[2] ^ 2 + wu[3] ^ 2)
  local lv = math.sqrt(wv[1] ^ 2 + wv[2] ^ 2 + wv[3] ^ 2)
  local uh, vh = {wu[1] / lu, wu[2] / lu, wu[3] / lu}, {wv[1] / lv, wv[2] / lv, wv[3] / lv}
  local c = uh[1] * vh[1] + uh[2] * vh[2] + uh[3] * vh[3]
  local g = {}
  for m = 1, 3 do
    for s = 1, 3 do
      g[3 * (m - 1) + s] = rest.alpha * (rest.dwu[m] * (vh[s] - c * uh[s]) / lu
                                         + rest.dwv[m] * (uh[s] - c * vh[s]) / lv)
    end
  end
  return g
end

return M
