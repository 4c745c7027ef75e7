-- Lesson 101 exercise: a triangle's rest shape turns world positions into w_u and w_v,
-- 001 (3)-(4) and (6)-(12).
--
-- Fill in the two functions below, then grade them:
--   clothcheck lesson 101 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 101 --check --hint 2   (a more specific hint for the first failing part)
--
-- uv is the rest triangle: {{u0, v0}, {u1, v1}, {u2, v2}}.
-- x is the triangle's world positions, 9 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9].

local M = {}

-- the (u,v) edges of 001 (2): du1 = u1 - u0, dv1 = v1 - v0, du2 = u2 - u0, dv2 = v2 - v0
function M.edges(uv)
  return uv[2][1] - uv[1][1], uv[2][2] - uv[1][2], uv[3][1] - uv[1][1], uv[3][2] - uv[1][2]
end

-- TODO (1): the constant derivatives of (6)-(8) and (10)-(12):
--   dw_u/dx_m = a_m I and dw_v/dx_m = b_m I for m = 0, 1, 2.
-- Return the six numbers {a_0, a_1, a_2, b_0, b_1, b_2}.
function M.dw(uv)
  local du1, dv1, du2, dv2 = M.edges(uv)
  -- your code here
  return nil
end

-- TODO (2): w_u and w_v of (3)-(4) at positions x.
-- Return the six numbers {w_ux, w_uy, w_uz, w_vx, w_vy, w_vz}.
function M.w(x, uv)
  -- your code here
  return nil
end

return M
