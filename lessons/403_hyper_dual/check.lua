-- The grader of lesson 403's exercise (clothcheck lesson 403 --check [DIR] [--hint K]): the
-- product and the square root against the right hyper-dual parts on random numbers, and the
-- Hessian of the stretch condition C_u (001 (13)), written for hyper-duals, against the
-- toolkit's (15) to rounding. Mistakes named: "cross" (a product without the b c' + c b'
-- terms of e1e2), "chain" (a function of a hyper-dual without the f''(a) b c term), "seed" (a
-- Hessian with both seeds on x_i), or the part of the number that is off.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local seed = 7
local function rnd() seed = (1103515245 * seed + 12345) % 2147483648; return seed / 2147483648 * 2 - 1 end
local function parts(v)
  if type(v) ~= "table" then error("must return a hyper-dual number (made with M.hd)", 0) end
  return {v[1], v[2], v[3], v[4]}
end

local function check_mul(_, work, part)
  local got, want, nocross = {}, {}, {}
  for _ = 1, 8 do
    local p, q = {rnd(), rnd(), rnd(), rnd()}, {rnd(), rnd(), rnd(), rnd()}
    local r = work.hd(table.unpack(p)) * work.hd(table.unpack(q))
    if r == nil then return false, {"the product HD.__mul returns no numbers yet: fill in TODO (1)"} end
    for _, v in ipairs(parts(r)) do got[#got + 1] = v end
    local w = {p[1] * q[1], p[1] * q[2] + p[2] * q[1], p[1] * q[3] + p[3] * q[1],
               p[1] * q[4] + p[2] * q[3] + p[3] * q[2] + p[4] * q[1]}
    for k = 1, 4 do want[#want + 1], nocross[#nocross + 1] = w[k], k < 4 and w[k] or w[k] - p[2] * q[3] - p[3] * q[2] end
  end
  return grade.classify(got, want, "the product's a, b, c, d", part, 1e-14, {
    {nocross, "cross: the e1e2 part lacks b c' + c b': e1 times e2 is e1e2, not zero"},
  })
end

local function check_sqrt(f, work, part)
  local got, want, nochain = {}, {}, {}
  for _ = 1, 8 do
    local p = {1.5 + rnd(), rnd(), rnd(), rnd()}
    local r = f(work.hd(table.unpack(p)))
    if r == nil then return false, {grade.todo_message(part)} end
    for _, v in ipairs(parts(r)) do got[#got + 1] = v end
    local s = math.sqrt(p[1])
    local f1, f2 = 0.5 / s, -0.25 / (s * p[1])
    local w = {s, f1 * p[2], f1 * p[3], f1 * p[4] + f2 * p[2] * p[3]}
    for k = 1, 4 do want[#want + 1], nochain[#nochain + 1] = w[k], k < 4 and w[k] or f1 * p[4] end
  end
  return grade.classify(got, want, "sqrt's a, b, c, d", part, 1e-14, {
    {nochain, "chain: the e1e2 part lacks f''(a) b c: (b e1 + c e2)^2 / 2 = b c e1e2 is not zero"},
  })
end

local uv = {{0, 0}, {1, 0.2}, {0.3, 0.9}}
local function check_hessian(f, work, part)
  local du1, dv1, du2, dv2 = 1, 0.2, 0.3, 0.9
  local det = du1 * dv2 - du2 * dv1
  local alpha, dwu = (math.abs(det) / 2) ^ 0.75, {(dv1 - dv2) / det, dv2 / det, -dv1 / det}
  local function stretch_u(x)           -- C_u = alpha (|w_u| - 1), for numbers or hyper-duals
    local w = {0, 0, 0}
    for m = 1, 3 do
      for s = 1, 3 do w[s] = w[s] + dwu[m] * x[3 * (m - 1) + s] end
    end
    return alpha * (work.sqrt(w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) - 1)
  end
  local got, want, same = {}, {}, {}
  for _, x in ipairs({{0.1, -0.2, 0.05,  1.3, 0.1, 0.4,  0.2, 1.1, -0.3}, {0, 0, 0,  0.8, 0.3, -0.2,  0.1, 0.9, 0.3}}) do
    local H = f(stretch_u, {table.unpack(x)})
    if H == nil then return false, {grade.todo_message(part)} end
    if type(H) ~= "table" or #H ~= 81 then error("hessian must return 81 numbers (9 x 9, row by row)", 0) end
    local ref = cc.condition("stretch", "bw98"):eval(x, {uv = uv, area_power = 0.75}).hessian[1]
    for i = 1, 9 do
      for j = 1, 9 do got[#got + 1], want[#want + 1], same[#same + 1] = H[9 * (i - 1) + j], ref[i][j], ref[i][i] end
    end
  end
  return grade.classify(got, want, "the Hessian of C_u", part, 1e-13, {
    {same, "seed: every entry of row i is d2f/dx_i^2: both e1 and e2 were put on x_i; the e2 seed goes on x_j"},
  }, nil, {nv = 3, matrix = true})
end

return grade.run{lesson = "403_hyper_dual", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "hyper-dual product", fn = "HD", kind = "check", check = check_mul,
   hints = {"Multiply out the 16 products of the parts; e1 e1 = 0 and e2 e2 = 0, but e1 e2 = e2 e1 = e1e2.",
            "a: a a'. e1: a b' + b a'. e2: a c' + c a'. e1e2: everything else that survives.",
            "Check the e1e2 part: list every pair of parts whose units multiply to e1e2 -- there are four, two of them " ..
            "from e1 times e2."}},
  {todo = 2, name = "hyper-dual sqrt", fn = "sqrt", kind = "check", check = check_sqrt,
   hints = {"t = b e1 + c e2 + d e1e2 has t^2 = 2 b c e1e2 and t^3 = 0.",
            "f(a + t) = f(a) + f'(a) t + f''(a) t^2 / 2 = f(a) + f'(a) (b e1 + c e2) + (f'(a) d + f''(a) b c) e1e2.",
            "Check the e1e2 part against the series: besides f'(a) d, which term does t^2/2 add there? Write f' and f'' " ..
            "of the square root first."}},
  {todo = 3, name = "exact Hessian", fn = "hessian", kind = "check", check = check_hessian,
   hints = {"Seed x_i with e1 and x_j with e2: f's e1e2 part is then d2f/dx_i dx_j.",
            "For each i, j: y[k] = M.hd(x[k], k == i and 1 or 0, k == j and 1 or 0); H_ij = f(y)[4].",
            "Check the seeds: x_i on e1, x_j on e2, every other entry a plain number; which of f(y)'s four parts is the " ..
            "mixed derivative?"}},
}}
