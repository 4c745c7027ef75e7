-- Lesson 101, a typical wrong answer: w written straight from (1) with x1 where x1 - x0 belongs.
-- Expected diagnosis: translation
local M = {}

-- the (u,v) edges of 001 (2): du1 = u1 - u0, dv1 = v1 - v0, du2 = u2 - u0, dv2 = v2 - v0
function M.edges(uv)
  return uv[2][1] - uv[1][1], uv[2][2] - uv[1][2], uv[3][1] - uv[1][1], uv[3][2] - uv[1][2]
end

-- (1): (w_u w_v) = (x1 - x0, x2 - x0) [du1 du2; dv1 dv2]^-1, so w_u = ((x1-x0) dv2 - (x2-x0) dv1)/det:
-- x0 enters with (dv1 - dv2)/det, x1 with dv2/det, x2 with -dv1/det, (6)-(8); likewise (10)-(12)
function M.dw(uv)
  local du1, dv1, du2, dv2 = M.edges(uv)
  local det = du1 * dv2 - du2 * dv1
  return {(dv1 - dv2) / det, dv2 / det, -dv1 / det, (du2 - du1) / det, -du2 / det, du1 / det}
end

-- (1) written out: w_u = (x1 dv2 - (x2 - x0) dv1)/det, w_v = ((x2 - x0) du1 - x1 du2)/det
function M.w(x, uv)
  local du1, dv1, du2, dv2 = M.edges(uv)
  local det = du1 * dv2 - du2 * dv1
  local w = {}
  for s = 1, 3 do
    local x0, x1, x2 = x[s], x[3 + s], x[6 + s]
    w[s] = (x1 * dv2 - (x2 - x0) * dv1) / det
    w[3 + s] = ((x2 - x0) * du1 - x1 * du2) / det
  end
  return w
end

return M
