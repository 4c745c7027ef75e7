-- A typical wrong answer to lesson 402: the ratio of the halving upside down.
-- Expected diagnosis: sign
--
-- log2(r(e/2) / r(e)) is minus the order: a right gradient reads -2.
local M = {}

-- x + e d
function M.along(x, d, e)
  local y = {}
  for i = 1, #x do y[i] = x[i] + e * d[i] end
  return y
end

-- (1): C(x + e d) = C + e g.d + e^2/2 d^T H d + O(e^3): take away one term, then the next
function M.remainders(C, g, H, x, d, e)
  local dc, gd, dHd = C(M.along(x, d, e)) - C(x), 0, 0
  for i = 1, #x do
    gd = gd + g[i] * d[i]
    for j = 1, #x do dHd = dHd + d[i] * H[i][j] * d[j] end
  end
  return math.abs(dc - e * gd), math.abs(dc - e * gd - e * e / 2 * dHd)
end

-- (2): an order is a limit, so read it at the smallest e: a small error in g only shows
-- once e times it outgrows the e^2 term
function M.observed_order(C, g, x, d)
  local gd, c0, r = 0, C(x), {}
  for i = 1, #x do gd = gd + g[i] * d[i] end
  for k = 1, 20 do
    local e = 2 ^ -k
    r[k] = math.abs(C(M.along(x, d, e)) - c0 - e * gd)
  end
  local o = {}
  for k = 16, 19 do o[#o + 1] = math.log(r[k + 1] / r[k], 2) end
  table.sort(o)
  return (o[2] + o[3]) / 2
end

return M
