-- The grader of lesson 503's exercise (clothcheck lesson 503 --check [DIR] [--hint K]): the
-- filter blocks against the right ones; MPCG on two systems of a 4 x 4 mass-spring cloth (the
-- lesson's backward Euler step with pins and sliding vertices, and one whose answer is nearly
-- z): the constraints must hold exactly and the residual of the reduced system meet the
-- tolerance. Mistakes named: "complement" (p p^T for a plane), "unit" (a direction not
-- normalised), "filter" (an update left unfiltered: the constraints drift), "initiation"
-- (Baraff & Witkin's delta0: the solve stops far above its tolerance).
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local function right_block(kind, dir, normalise)
  if kind == "free" then return {1, 0, 0, 0, 1, 0, 0, 0, 1} end
  if kind == "pinned" then return {0, 0, 0, 0, 0, 0, 0, 0, 0} end
  local l = normalise and math.sqrt(dir[1] ^ 2 + dir[2] ^ 2 + dir[3] ^ 2) or 1
  local u, S = {dir[1] / l, dir[2] / l, dir[3] / l}, {}
  for a = 1, 3 do for c = 1, 3 do
    S[3 * (a - 1) + c] = kind == "plane" and (a == c and 1 or 0) - u[a] * u[c] or u[a] * u[c]
  end end
  return S
end

local block_cases = {{"free"}, {"pinned"}, {"plane", {0, 0, 2}}, {"plane", {1, 2, -2}}, {"line", {3, 0, 4}}, {"line", {0.2, -0.1, 0.4}}}

local function check_blocks(f, _, part)
  local got, want, comp, unnorm = {}, {}, {}, {}
  for _, c in ipairs(block_cases) do
    local S = f(c[1], c[2] and {table.unpack(c[2])})
    if S == nil then return false, {grade.todo_message(part)} end
    if type(S) ~= "table" or #S ~= 9 then error("filter_block must return 9 numbers", 0) end
    local r, u = right_block(c[1], c[2], true), right_block(c[1], c[2], false)
    local other = c[1] == "plane" and right_block("line", c[2], true) or c[1] == "line" and right_block("plane", c[2], true) or r
    for i = 1, 9 do got[#got + 1], want[#want + 1], comp[#comp + 1], unnorm[#unnorm + 1] = S[i], r[i], other[i], u[i] end
  end
  return grade.classify(got, want, "the blocks", part, 1e-12, {
    {comp, "complement: a plane's block is I - p p^T (keeps what lies in the plane), a line's d d^T; yours are the other way round"},
    {unnorm, "unit: p p^T and d d^T are projectors only for unit p, d: divide dir by its length first"},
  })
end

-- the lesson's system: a backward Euler step of a 4 x 4 mass-spring cloth
local n, h, k, mass = 4, 0.02, 500, 0.01
local nv, N = n * n, 3 * n * n
local function system()
  local spring = cc.condition("spring", "linear")
  local x, A, f = {}, {}, {}
  for j = 0, n - 1 do for i = 0, n - 1 do
    local p = 3 * (j * n + i)
    x[p + 1], x[p + 2], x[p + 3] = 1.05 * i / (n - 1), j / (n - 1), 0.1 * math.sin(i + 2 * j)
  end end
  for r = 1, N do A[r], f[r] = {}, 0; for c = 1, N do A[r][c] = 0 end end
  local function add(a, b, L)
    local e = spring:eval({x[3 * a + 1], x[3 * a + 2], x[3 * a + 3], x[3 * b + 1], x[3 * b + 2], x[3 * b + 3]}, {rest = L})
    local C, g, H = e.value[1], e.gradient[1], e.hessian[1]
    local idx = {3 * a + 1, 3 * a + 2, 3 * a + 3, 3 * b + 1, 3 * b + 2, 3 * b + 3}
    for I = 1, 6 do
      f[idx[I]] = f[idx[I]] - k * C * g[I]
      for J = 1, 6 do A[idx[I]][idx[J]] = A[idx[I]][idx[J]] + h * h * k * (g[I] * g[J] + C * H[I][J]) end
    end
  end
  local d = 1 / (n - 1)
  for j = 0, n - 1 do for i = 0, n - 1 do
    local v = j * n + i
    if i < n - 1 then add(v, v + 1, d) end
    if j < n - 1 then add(v, v + n, d) end
    if i < n - 1 and j < n - 1 then add(v, v + n + 1, d * math.sqrt(2)); add(v + 1, v + n, d * math.sqrt(2)) end
  end end
  local b = {}
  for r = 1, N do A[r][r] = A[r][r] + mass; b[r] = h * (f[r] + (r % 3 == 0 and -9.81 * mass or 0)) end
  return A, b
end

-- the two systems MPCG is graded on: A, the filter S and the cases {b, z, tol, what}
local function mpcg_cases(work)
  local A, b = system()
  local S = {}
  for v = 0, nv - 1 do S[v] = right_block("free") end
  S[0], S[3] = right_block("pinned"), right_block("pinned")
  S[12], S[15] = right_block("plane", {0, 0.6, 0.8}, true), right_block("line", {0.6, 0.8, 0}, true)
  local z1 = {}
  for i = 1, N do z1[i] = 0 end
  z1[1], z1[3] = 0.01, 0.02
  local z2 = {}
  for i = 1, N do z2[i] = 0 end
  z2[1], z2[2], z2[3], z2[10], z2[11], z2[12] = 0.2, -0.1, 0.3, -0.1, 0.2, 0.1
  local b2 = work.mul(A, z2)
  for i = 1, N do b2[i] = b2[i] + 1e-4 * math.cos(3 * i) end
  return A, S, {{b = b, z = z1, tol = 1e-8, what = "the backward Euler step, tol 1e-8"},
                {b = b2, z = z2, tol = 1e-3, what = "the pins' pull b = A z + 1e-4, tol 1e-3"}}
end

local function check_mpcg(f, work, part)
  local A, S, cases = mpcg_cases(work)
  local lines, pass = {}, true
  for _, c in ipairs(cases) do
    local dv, it = f(A, {table.unpack(c.b)}, {table.unpack(c.z)}, S, c.tol)
    if dv == nil then return false, {grade.todo_message(part)} end
    if type(dv) ~= "table" or #dv ~= N then error("mpcg must return dv (" .. N .. " numbers) and the iteration count", 0) end
    local diff = work.axpy(-1, c.z, dv)
    local free, drift = work.filter(S, diff), 0
    for i = 1, N do drift = math.max(drift, math.abs(diff[i] - free[i])) end
    local r0 = work.filter(S, work.axpy(-1, work.mul(A, c.z), c.b))
    local r = work.filter(S, work.axpy(-1, work.mul(A, dv), c.b))
    local res = math.sqrt(work.dot(r, r) / work.dot(r0, r0))
    if drift > 1e-14 then
      pass = false
      lines[#lines + 1] = string.format("filter: %s: the constrained part of dv is off z by %.2g: filter every vector that updates dv and r (q = S A c, c = S(...))", c.what, drift)
    elseif res > 3 * c.tol then
      pass = false
      lines[#lines + 1] = string.format("%s: relative residual |S(b - A dv)| / |S(b - A z)| = %.2g after %s iterations, tolerance %.0e",
                                        c.what, res, tostring(it), c.tol)
      if c.tol == 1e-3 then
        lines[#lines + 1] = "initiation: stopped far above the tolerance when the answer is nearly z: measure delta0 on S (b - A z) " ..
                            "with P^-1, as delta is measured (Ascher & Boxerman), not as filter(b)^T P filter(b)"
      end
    end
  end
  return pass, lines
end

-- the derivation as steps for the stepper, each part's own. The filter: S_i r keeps the part
-- of r the vertex may change (r; 0; r - (r.p^) p^; (r.d^) d^), a linear map whose derivative
-- is your block S_i (on a free, a pinned, a sliding-in-a-plane and a sliding-along-a-line
-- vertex). MPCG (not derivatives: compared with the right values, on the two systems it is
-- graded on): dv = z + y with y = S y keeps the constrained part (I - S) dv = (I - S) z
-- exactly; y solves S A S y = S (b - A z) to the tolerance, the relative residual
-- |S (b - A dv)| / |S (b - A z)| at most 3 tol
local function steps_filter(work)
  local kinds = {{"free"}, {"pinned"}, {"plane", {1, 2, -2}}, {"line", {0.2, -0.1, 0.4}}}
  local function part_of(kind, dir, r)
    if kind == "free" then return r end
    if kind == "pinned" then return {0, 0, 0} end
    local l = math.sqrt(grade.dot(dir, dir))
    local u = {dir[1] / l, dir[2] / l, dir[3] / l}
    local a = grade.dot(r, u)
    if kind == "line" then return {a * u[1], a * u[2], a * u[3]} end
    return {r[1] - a * u[1], r[2] - a * u[2], r[3] - a * u[3]}
  end
  return {{name = "S r", equations = "Baraff & Witkin 5.3",
           value = function(r)
             local q = {}
             for m, k in ipairs(kinds) do
               local p = part_of(k[1], k[2], grade.vec(r, m - 1))
               for t = 1, 3 do q[3 * (m - 1) + t] = p[t] end
             end
             return q
           end,
           derivative = function()
             local d = {}
             for i = 1, 144 do d[i] = 0 end
             for m, k in ipairs(kinds) do
               local B = work.filter_block(k[1], k[2] and {table.unpack(k[2])})
               for a = 1, 3 do
                 for c = 1, 3 do d[12 * (3 * (m - 1) + a - 1) + 3 * (m - 1) + c] = B[3 * (a - 1) + c] end
               end
             end
             return d
           end}}, {0.3, -0.2, 0.5,  0.1, 0.4, -0.3,  0.7, -0.5, 0.2,  -0.4, 0.6, 0.1}
end

local function steps_mpcg(work)
  local A, S, cases = mpcg_cases(work)
  local drift, res = {}, {}
  for k, c in ipairs(cases) do
    local dv = work.mpcg(A, {table.unpack(c.b)}, {table.unpack(c.z)}, S, c.tol)
    local diff = work.axpy(-1, c.z, dv)
    local free = work.filter(S, diff)
    for i = 1, N do drift[#drift + 1] = diff[i] - free[i] end
    local r0 = work.filter(S, work.axpy(-1, work.mul(A, c.z), c.b))
    local r = work.filter(S, work.axpy(-1, work.mul(A, dv), c.b))
    res[k] = math.sqrt(work.dot(r, r) / work.dot(r0, r0))
  end
  local zeros = {}
  for i = 1, #drift do zeros[i] = 0 end
  return {
    {name = "(I - S) dv = (I - S) z", equations = "Baraff & Witkin 5.3", tol = 1e-14, scale = 1,
     value = function() return drift end, right = function() return zeros end},
    {name = "S A S y = S (b - A z)", equations = "Baraff & Witkin 5.3; Ascher & Boxerman 2003",
     tol = {3 * cases[1].tol, 3 * cases[2].tol}, scale = 1,
     value = function() return res end, right = function() return {0, 0} end},
  }
end

return grade.run{lesson = "503_mpcg_constraints", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "filter blocks S_i", fn = "filter_block", kind = "check", check = check_blocks, steps = steps_filter,
   hints = {"S_i projects onto the directions the vertex is free to move in.",
            "Free: I; pinned: 0; a plane with unit normal p: I - p p^T; a line along unit d: d d^T.",
            "Check each block on a vector: a plane's must keep what lies in the plane and remove the normal, a line's keep " ..
            "only what lies along it; and a projector is made from a unit vector."}},
  {todo = 2, name = "the MPCG loop", fn = "mpcg", kind = "check", check = check_mpcg, steps = steps_mpcg,
   hints = {"CG on S A S y = S (b - A z): start from dv = z and filter everything that enters dv and r.",
            "r = S(b - A dv); c = S(P^-1 r); delta = r.c; delta0 = delta; loop: q = S(A c), alpha = delta / c.q, dv += alpha c, r -= alpha q, s = S(P^-1 r), delta' = r.s, c = S(s + delta'/delta c).",
            "Check every vector that updates dv and r: is it filtered? And what delta0 is measured on: the same residual " ..
            "and norm as delta (Ascher & Boxerman)."}},
}}
