-- A typical wrong answer to lesson 104: vertex m's gradient entries read axis-major.
-- Expected diagnosis: relabelled
--
-- dC[c] taken as if it held every x first, then every y, then every z (entry 3 (s - 1) + m):
-- the forces are the right numbers in the wrong places. cond:eval lays a gradient out vertex
-- by vertex, dC[c][3 m + s].

local M = {}

-- (1): the force of one condition with stiffness k on vertex m (0, 1 or 2), from the
-- energy E = k/2 |C|^2: f_m = -dE/dx_m. C is the list of the condition's components and dC
-- their gradients (dC[c][3m + s] = dC_c/dx_{m,s}, s = 1..3), as cond:eval returns them.
-- Return {f_x, f_y, f_z}.
function M.force(C, dC, k, m)
  local f = {0, 0, 0}
  for c = 1, #C do
    for s = 1, 3 do f[s] = f[s] - k * C[c] * dC[c][3 * (s - 1) + m + 1] end   -- -k sum_c C_c dC_c/dx_m
  end
  return f
end

-- (2): the area power p in alpha = a^p for which the stretch energy of a smoothly
-- deformed cloth does not change when every triangle is split 1-to-4 (area a -> a/4,
-- four times as many triangles).
-- E = k/2 sum |C|^2 with |C| ~ a^p |strain|: each triangle holds a^(2p), and there are ~1/a of
-- them, so E ~ a^(2p - 1): independent of a when p = 1/2 (003 3.1's sqrt(a) conditions)
M.p = 0.5

return M
