-- The grader of lesson 504's exercise (clothcheck lesson 504 --check [DIR] [--hint K]): the
-- stiffness in each mode against the right matrix for stretch components of a stretched and
-- a compressed triangle; the smallest eigenvalue on matrices of known spectrum (Q D Q^T, Q a
-- product of Householder reflections), definite and indefinite. Mistakes named: "clamp-side"
-- (C d2C dropped on the stretched side), "sign" (the energy's curvature with the wrong sign),
-- "largest" (the largest eigenvalue), "diagonal" (the smallest diagonal entry, only an upper
-- bound).
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local stretch = cc.condition("stretch", "bw98")
local uv = {{0, 0}, {1, 0.2}, {0.3, 0.9}}
local triangles = {{0.1, -0.2, 0.05,  1.3, 0.1, 0.4,  0.2, 1.1, -0.3},       -- stretched
                   {0.1, -0.2, 0.05,  0.75, 0.05, 0.2,  0.2, 0.7, -0.3}}     -- compressed

local function right(C, g, H, k, keep)
  local K = {}
  for i = 1, 9 do for j = 1, 9 do K[#K + 1] = k * (g[i] * g[j] + (keep and C * H[i][j] or 0)) end end
  return K
end

local function check_stiffness(f, _, part)
  local got, want, flipped, negated = {}, {}, {}, {}
  local k = 2.5
  for _, x in ipairs(triangles) do
    local r = stretch:eval(x, {uv = uv, area_power = 0.75})
    for c = 1, 2 do
      local C, g, H = r.value[c], r.gradient[c], r.hessian[c]
      for _, mode in ipairs({"full", "gauss-newton", "clamp"}) do
        local K = f(C, {table.unpack(g)}, H, k, mode)
        if K == nil then return false, {grade.todo_message(part)} end
        if type(K) ~= "table" or #K ~= 81 then error("stiffness must return n*n = 81 numbers here", 0) end
        local keep = mode == "full" or (mode == "clamp" and C >= 0)
        local keep_flip = mode == "full" or (mode == "clamp" and C < 0)
        local W, F = right(C, g, H, k, keep), right(C, g, H, k, keep_flip)
        local N = right(-C, g, H, k, keep)
        for i = 1, 81 do got[#got + 1], want[#want + 1], flipped[#flipped + 1], negated[#negated + 1] = K[i], W[i], F[i], N[i] end
      end
    end
  end
  return grade.classify(got, want, "K", part, 1e-12, {
    {flipped, "clamp-side: clamp drops C d2C where the element is stretched (C > 0); it must go where it is compressed, " ..
      "C < 0 -- there C d2C curves the energy down"},
    {negated, "sign: the C d2C term has the wrong sign: d(C dC) = dC dC^T + C d2C"},
  }, nil, {nv = 3, matrix = true})
end

-- S = Q diag(d) Q^T with Q = (I - 2 u u^T/u.u)(I - 2 w w^T/w.w)
local function known(d, u, w)
  local n = #d
  local function reflect(M, v)                    -- (I - 2 v v^T / v.v) M
    local vv, R = 0, {}
    for i = 1, n do vv = vv + v[i] ^ 2 end
    for i = 1, n do R[i] = {} end
    for j = 1, n do
      local s = 0
      for i = 1, n do s = s + v[i] * M[i][j] end
      for i = 1, n do R[i][j] = M[i][j] - 2 * v[i] * s / vv end
    end
    return R
  end
  local D = {}
  for i = 1, n do D[i] = {} for j = 1, n do D[i][j] = i == j and d[i] or 0 end end
  local S = reflect(reflect(D, u), w)             -- Q D, then transpose trick: (Q D Q^T) = Q (Q D)^T
  local T = {}
  for i = 1, n do T[i] = {} for j = 1, n do T[i][j] = S[j][i] end end
  return reflect(reflect(T, u), w)
end

local function check_eigen(f, _, part)
  local cases = {
    {d = {3, 1, 2, 5, 4}, u = {1, 2, -1, 0.5, 3}, w = {-2, 1, 0, 1, 1}},
    {d = {0.5, -1.5, 2, 7, 3, 1}, u = {1, 0, 1, 0, 1, 2}, w = {0.3, -1, 2, 1, 0, 1}},
    {d = {1e-3, 2, 4}, u = {1, 1, 1}, w = {1, -2, 0.5}},
  }
  local got, want, largest, diag = {}, {}, {}, {}
  for _, c in ipairs(cases) do
    local S = known(c.d, c.u, c.w)
    local copy = {}
    for i = 1, #S do copy[i] = {table.unpack(S[i])} end
    local l = f(copy)
    if l == nil then return false, {grade.todo_message(part)} end
    if type(l) ~= "number" then error("smallest_eigenvalue must return a number", 0) end
    local lo, hi, dmin = math.huge, -math.huge, math.huge
    for i = 1, #c.d do lo, hi, dmin = math.min(lo, c.d[i]), math.max(hi, c.d[i]), math.min(dmin, S[i][i]) end
    got[#got + 1], want[#want + 1], largest[#largest + 1], diag[#diag + 1] = l, lo, hi, dmin
  end
  return grade.classify(got, want, "the smallest eigenvalues", part, 1e-9, {
    {largest, "largest: these are the largest eigenvalues"},
    {diag, "diagonal: the smallest diagonal entry is only an upper bound of the smallest eigenvalue (x = e_i in x^T S x / x^T x)"},
  })
end

return grade.run{lesson = "504_indefinite", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "stiffness and its modes", fn = "stiffness", kind = "check", check = check_stiffness,
   hints = {"E = k/2 C^2: differentiate k C dC/dx once more, by the product rule.",
            "K = k (g g^T + C H); Gauss-Newton leaves C H out; clamp leaves it out only when C < 0.",
            "Check the clamp's side: the C d2C term is dropped where it curves the energy down. For which sign of C is that?"}},
  {todo = 2, name = "smallest eigenvalue", fn = "smallest_eigenvalue", kind = "check", check = check_eigen,
   hints = {"A rotation G in the (p, q) plane with the right angle makes (G^T S G)_pq = 0 and keeps the spectrum.",
            "theta = (S_qq - S_pp) / (2 S_pq), t = sign(theta) / (|theta| + sqrt(theta^2 + 1)), c = 1/sqrt(t^2 + 1), s = t c; rotate columns p, q then rows p, q.",
            "Check when you stop and what you return: the diagonal holds the eigenvalues only once the off-diagonal part " ..
            "is gone (relative to the largest entry), and you want the smallest of them."}},
}}
