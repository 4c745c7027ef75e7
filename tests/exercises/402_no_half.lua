-- A typical wrong answer to lesson 402: the second-order term without its 1/2.
-- Expected diagnosis: half
--
-- The Taylor series is C + e g.d + e^2/2 d^T H d + ...: forgetting the 1/2 leaves r2 of
-- order 2, and a right Hessian looks wrong.
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
  return math.abs(dc - e * gd), math.abs(dc - e * gd - e * e * dHd)
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
  for k = 16, 19 do o[#o + 1] = math.log(r[k] / r[k + 1], 2) end
  table.sort(o)
  return (o[2] + o[3]) / 2
end

return M
