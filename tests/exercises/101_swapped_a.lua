-- Lesson 101, a typical wrong answer: a_1 and a_2 (and b_1 and b_2) exchanged, x1 paired with the edge to x2.
-- Expected diagnosis: relabelled
local M = {}

-- the (u,v) edges of 001 (2): du1 = u1 - u0, dv1 = v1 - v0, du2 = u2 - u0, dv2 = v2 - v0
function M.edges(uv)
  return uv[2][1] - uv[1][1], uv[2][2] - uv[1][2], uv[3][1] - uv[1][1], uv[3][2] - uv[1][2]
end

-- (1), read with x1 - x0 going with the second edge: w_u = ((x2 - x0) dv2 - (x1 - x0) dv1)/det
-- x0 enters with (dv1 - dv2)/det, x1 with -dv1/det, x2 with dv2/det; likewise w_v
function M.dw(uv)
  local du1, dv1, du2, dv2 = M.edges(uv)
  local det = du1 * dv2 - du2 * dv1
  return {(dv1 - dv2) / det, -dv1 / det, dv2 / det, (du2 - du1) / det, du1 / det, -du2 / det}
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
