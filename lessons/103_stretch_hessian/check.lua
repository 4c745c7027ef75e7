-- The grader of lesson 103's exercise (clothcheck lesson 103 --check [DIR] [--hint K]): each
-- Hessian against finite differences of the right gradient, with the audit's diagnosis.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"

local function w_of(x, dw)
  local w = {0, 0, 0}
  for m = 1, 3 do
    for s = 1, 3 do w[s] = w[s] + dw[m] * x[3 * (m - 1) + s] end
  end
  return w, math.sqrt(w[1] ^ 2 + w[2] ^ 2 + w[3] ^ 2)
end

-- C_k = alpha (|w| - b), 001 (13)
local function C(x, rest, dw, b)
  local _, len = w_of(x, dw)
  return rest.alpha * (len - b)
end

-- dC_k/dx_{m,s} = alpha dw_m w^_s, 001 (14)
local function dC(x, rest, dw)
  local w, len = w_of(x, dw)
  local g = {}
  for m = 1, 3 do
    for s = 1, 3 do g[3 * (m - 1) + s] = rest.alpha * dw[m] * w[s] / len end
  end
  return g
end

-- E = 1/2 (C_u^2 + C_v^2) and its gradient C_u dC_u + C_v dC_v
local function energy(x, rest)
  return 0.5 * (C(x, rest, rest.dwu, rest.bu) ^ 2 + C(x, rest, rest.dwv, rest.bv) ^ 2)
end
local function energy_gradient(x, rest)
  local cu, cv = C(x, rest, rest.dwu, rest.bu), C(x, rest, rest.dwv, rest.bv)
  local gu, gv = dC(x, rest, rest.dwu), dC(x, rest, rest.dwv)
  local g = {}
  for i = 1, 9 do g[i] = cu * gu[i] + cv * gv[i] end
  return g
end

return grade.run{lesson = "103_stretch_hessian", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "d2C_u/dxdx, 001 (15)", fn = "hessian_u", kind = "hessian", nv = 3,
   value = function(x, rest) return C(x, rest, rest.dwu, rest.bu) end,
   gradient = function(x, rest) return dC(x, rest, rest.dwu) end,
   hints = {"Differentiate (14), alpha dw_m w^_s: alpha and dw_m are constants, only w^ = w/|w| depends on x.",
            "d(w/|w|) = (I - w^ w^T) dw / |w| (a unit vector only turns), and dw_u/dx_{n,t} = dwu[n] along axis t.",
            "Check it block by block against (15): the 3x3 block of vertices m, n is a number made of alpha, dwu[m], dwu[n] and " ..
            "|w| times a 3x3 matrix. Which matrix takes away the change of length, and does yours?"}},
  {todo = 2, name = "d2E/dxdx, 001 (18)", fn = "energy_hessian", kind = "hessian", nv = 3,
   value = energy, gradient = energy_gradient,
   hints = {"The product rule on C_k dC_k/dx: two terms for each of k = u, v.",
            "d2E = dC_u dC_u^T + C_u d2C_u + (the same for v); dC_k dC_k^T is the outer product of the 9-vector (14).",
            "Check both terms of each component: is C_k d2C_k there (it is zero at rest, so a check at rest cannot see it), " ..
            "and is each outer product built from its own component's (14)?"}},
}}
