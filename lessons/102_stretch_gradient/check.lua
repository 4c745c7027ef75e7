-- The grader of lesson 102's exercise (clothcheck lesson 102 --check [DIR] [--hint K]):
-- each gradient against finite differences of the stretch condition's value, with the
-- audit's diagnosis when it differs; a gradient that is the other component's right one is named
-- "component-swap" (the audit of one component alone cannot tell which other gradient it is).
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

-- the right dC_k/dx_{m,s} = alpha dw_m w^_s, (14) and (16)
local function right_gradient(dwkey)
  return function(x, rest)
    local w = {0, 0, 0}
    for m = 1, 3 do
      for s = 1, 3 do w[s] = w[s] + rest[dwkey][m] * x[3 * (m - 1) + s] end
    end
    local len, g = math.sqrt(w[1] ^ 2 + w[2] ^ 2 + w[3] ^ 2), {}
    for m = 1, 3 do
      for s = 1, 3 do g[3 * (m - 1) + s] = rest.alpha * rest[dwkey][m] * w[s] / len end
    end
    return g
  end
end

local CASES = grade.triangle_cases()

-- a gradient that is the other component's right one: the audit of one component alone sees
-- only that it is wrong
local function other(fn, mine, theirs)
  return function(f)
    if grade.same_function(f, right_gradient("dw" .. theirs), CASES) then
      return {string.format("component-swap: %s returns dC_%s/dx, the right gradient of the other component: C_%s = " ..
                            "alpha (|w_%s| - b_%s) moves with x through w_%s, built from rest.dw%s",
                            fn, theirs, mine, mine, mine, mine, mine)}
    end
  end
end

return grade.run{lesson = "102_stretch_gradient", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "dC_u/dx, 001 (14)", fn = "grad_u", nv = 3, value = stretch("dwu", "bu"),
   kind = "check", check = grade.audited("gradient", other("grad_u", "u", "v")),
   hints = {"The chain rule: C_u depends on x only through the length |w_u|.",
            "d|w| = w^ . dw, with w^ = w/|w|; and dw_u/dx_{m,s} = dwu[m] along axis s (5)-(8).",
            "Check the three factors of (14) one at a time: the area weight alpha, the constant dw_u/dx_m of (6)-(8) " ..
            "(one number per vertex, the three summing to zero), and the unit vector w^_u; the diagnosis names the one " ..
            "that is off."}},
  {todo = 2, name = "dC_v/dx, 001 (16)", fn = "grad_v", nv = 3, value = stretch("dwv", "bv"),
   kind = "check", check = grade.audited("gradient", other("grad_v", "v", "u")),
   hints = {"The same chain rule as part (1), with v for u.",
            "Use rest.dwv and w_v = w_of(x, rest.dwv).",
            "Read your part (2) against your part (1) line by line: every u must have become v, in the rest data and in " ..
            "the w you build from it."}},
}}
