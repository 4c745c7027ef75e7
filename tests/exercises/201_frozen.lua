-- A typical wrong answer to lesson 201: (A.6) with the lengths held constant (the projector of (A.1) left out).
-- Expected diagnosis: frozen-magnitude
--
-- (21): w_u and w_v are linear in x, dw_u/dx_{m,s} = dwu_m e_s, so the product rule gives
--   dC/dx_{m,s} = alpha (dwu_m w_{v,s} + w_{u,s} dwv_m)
-- (A.6) with (A.1): dw^/dx_{m,s} = dw_m (e_s - w^_s w^) / |w|, so
--   dC/dx_{m,s} = alpha (dwu_m (w^_{v,s} - c w^_{u,s}) / |w_u| + dwv_m (w^_{u,s} - c w^_{v,s}) / |w_v|),
-- c = w^_u . w^_v.

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
    for s = 1, 3 do g[3 * (m - 1) + s] = rest.alpha * (rest.dwu[m] * wv[s] + wu[s] * rest.dwv[m]) end
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
      g[3 * (m - 1) + s] = rest.alpha * (rest.dwu[m] * vh[s] / lu
                                         + rest.dwv[m] * uh[s] / lv)
    end
  end
  return g
end

return M
