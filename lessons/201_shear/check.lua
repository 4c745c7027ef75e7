-- The grader of lesson 201's exercise (clothcheck lesson 201 --check [DIR] [--hint K]): each
-- gradient against finite differences of its shear condition, with the audit's diagnosis; (21)
-- with the factors of the product rule exchanged (each dw with its own w) is named
-- "component-swap".
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"

local function w_of(x, dw)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dw[m] * x[3 * (m - 1) + s] end
  end
  return w
end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end

-- C = alpha w_u . w_v (19), or alpha w^_u . w^_v (A.5)
local function shear(normalized)
  return function(x, rest)
    local wu, wv = w_of(x, rest.dwu), w_of(x, rest.dwv)
    local c = dot(wu, wv)
    if normalized then c = c / math.sqrt(dot(wu, wu) * dot(wv, wv)) end
    return rest.alpha * c
  end
end

-- (A.5) with the lengths |w_u|, |w_v| taken at xf (001 Section 4), so that the diagnosis can
-- name a derivative that held them constant
local function shear_frozen(x, xf, rest)
  local wu, wv = w_of(x, rest.dwu), w_of(x, rest.dwv)
  local fu, fv = w_of(xf, rest.dwu), w_of(xf, rest.dwv)
  return rest.alpha * dot(wu, wv) / math.sqrt(dot(fu, fu) * dot(fv, fv))
end

-- (21) with each dw paired with its own w: alpha (dwu_m w_u,s + w_v,s dwv_m), the gradient of
-- alpha (|w_u|^2 + |w_v|^2)/2 -- the two factors of the product rule exchanged
local function own_pairs(x, rest)
  local wu, wv = w_of(x, rest.dwu), w_of(x, rest.dwv)
  local g = {}
  for m = 1, 3 do
    for s = 1, 3 do g[3 * (m - 1) + s] = rest.alpha * (rest.dwu[m] * wu[s] + wv[s] * rest.dwv[m]) end
  end
  return g
end

local CASES = grade.triangle_cases()

local function swapped_factors(f)
  if grade.same_function(f, own_pairs, CASES) then
    return {"component-swap: the factors of the product rule exchanged: differentiating w_u leaves w_v standing " ..
            "(dwu_m w_v,s), and the other way round; yours pairs each dw with its own w, the gradient of " ..
            "alpha (|w_u|^2 + |w_v|^2)/2"}
  end
end

return grade.run{lesson = "201_shear", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "dC/dx, 001 (21)", fn = "grad_bw98", nv = 3, value = shear(false),
   kind = "check", check = grade.audited("gradient", swapped_factors),
   hints = {"The product rule on w_u . w_v: both factors move with x.",
            "dw_u/dx_{m,s} is rest.dwu[m] along axis s, so d(w_u . w_v) = dwu_m w_v,s + w_u,s dwv_m.",
            "Check each term of the product rule: the factor that is differentiated gives the constant dw/dx_m, the other " ..
            "one stays as a vector -- which of w_u and w_v goes with rest.dwu[m]? And alpha multiplies both terms."}},
  {todo = 2, name = "dC/dx, 001 (A.6)", fn = "grad_normalized", nv = 3, value = shear(true),
   value_frozen = shear_frozen,
   hints = {"The product rule on w^_u . w^_v, with the derivative of a unit vector (A.1).",
            "dw^/dx_{m,s} = dw_m (e_s - w^_s w^) / |w|: the projector removes the change of length.",
            "Check each unit vector's derivative by (A.1): it must have no part along the vector itself (a unit vector only " ..
            "turns), and it is divided by its own length. The diagnosis says which of the two is missing."}},
}}
