-- A typical wrong answer to lesson 101: the six coefficients interleaved.
-- Expected diagnosis: relabelled
--
-- a_m and b_m right, but listed vertex by vertex (a_0, b_0, a_1, b_1, a_2, b_2) where the
-- exercise asks for w_u's three, then w_v's.

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
  return {(dv1 - dv2) / det, (du2 - du1) / det, dv2 / det, -du2 / det, -dv1 / det, du1 / det}
end

-- (2): w = sum_m (dw/dx_m) x_m, (3)-(4)
function M.w(x, uv)
  local d, w = M.dw(uv), {}
  for s = 1, 3 do
    w[s] = d[1] * x[s] + d[2] * x[3 + s] + d[3] * x[6 + s]
    w[3 + s] = d[4] * x[s] + d[5] * x[3 + s] + d[6] * x[6 + s]
  end
  return w
end

return M
