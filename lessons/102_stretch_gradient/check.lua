-- The grader of lesson 102's exercise (clothcheck lesson 102 --check [DIR] [--hint K]):
-- each gradient against finite differences of the stretch condition's value, with the
-- audit's diagnosis when it differs.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"

-- C_k = alpha (|w| - b), w = sum_m dw_m x_m, 001 (13)
local function stretch(dwkey, bkey)
  return function(x, rest)
    local w = {0, 0, 0}
    for m = 1, 3 do
      for s = 1, 3 do w[s] = w[s] + rest[dwkey][m] * x[3 * (m - 1) + s] end
    end
    return rest.alpha * (math.sqrt(w[1] ^ 2 + w[2] ^ 2 + w[3] ^ 2) - rest[bkey])
  end
end

return grade.run{lesson = "102_stretch_gradient", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "dC_u/dx, 001 (14)", fn = "grad_u", nv = 3, value = stretch("dwu", "bu"),
   hints = {"The chain rule: C_u depends on x only through the length |w_u|.",
            "d|w| = w^ . dw, with w^ = w/|w|; and dw_u/dx_{m,s} = dwu[m] along axis s (5)-(8).",
            "dC_u/dx_{m,s} = alpha * rest.dwu[m] * w[s] / |w|, for m = 1..3 (vertices 0..2), s = 1..3."}},
  {todo = 2, name = "dC_v/dx, 001 (16)", fn = "grad_v", nv = 3, value = stretch("dwv", "bv"),
   hints = {"The same chain rule as part (1), with v for u.",
            "Use rest.dwv and w_v = w_of(x, rest.dwv).",
            "dC_v/dx_{m,s} = alpha * rest.dwv[m] * w_v[s] / |w_v|."}},
}}
