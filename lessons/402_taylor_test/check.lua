-- The grader of lesson 402's exercise (clothcheck lesson 402 --check [DIR] [--hint K]): the
-- remainders against the right ones on the stretch condition C_u (001 (13)-(15)); the observed
-- order on a right gradient (2), a gradient with one entry off by 1e-3 of its largest (1) and
-- the negated gradient (1). Mistakes named: "half" (the second-order term without its 1/2),
-- "sign", "pre-asymptotic" (an order read at large e, where a small error does not show yet).
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local stretch = cc.condition("stretch", "bw98")
local opts = {uv = {{0, 0}, {1, 0.2}, {0.3, 0.9}}, area_power = 0.75}
local function C(y) return stretch:eval(y, opts).value[1] end

local points = {
  {x = {0.1, -0.2, 0.05,  1.3, 0.1, 0.4,  0.2, 1.1, -0.3}, d = {0.3, -0.5, 0.2,  -0.1, 0.4, 0.6,  0.7, -0.2, -0.4}},
  {x = {0.0, 0.0, 0.0,  0.8, 0.3, -0.2,  0.1, 0.9, 0.3}, d = {-0.2, 0.1, 0.5,  0.6, -0.3, 0.1,  0.2, 0.4, -0.6}},
}

local function dots(g, H, d)
  local gd, dHd = 0, 0
  for i = 1, #d do
    gd = gd + g[i] * d[i]
    for j = 1, #d do dHd = dHd + d[i] * H[i][j] * d[j] end
  end
  return gd, dHd
end

local function check_remainders(f, _, part)
  local got, want, nohalf = {}, {}, {}
  for _, p in ipairs(points) do
    local r = stretch:eval(p.x, opts)
    local g, H = r.gradient[1], r.hessian[1]
    local gd, dHd = dots(g, H, p.d)
    for _, e in ipairs({0.1, 0.01, 0.001}) do
      local r1, r2 = f(C, g, H, {table.unpack(p.x)}, p.d, e)
      if r1 == nil then return false, {grade.todo_message(part)} end
      local y = {}
      for i = 1, 9 do y[i] = p.x[i] + e * p.d[i] end
      local dc = C(y) - C(p.x)
      got[#got + 1], got[#got + 2] = r1, r2
      want[#want + 1], want[#want + 2] = math.abs(dc - e * gd), math.abs(dc - e * gd - e * e / 2 * dHd)
      nohalf[#nohalf + 1], nohalf[#nohalf + 2] = want[#want - 1], math.abs(dc - e * gd - e * e * dHd)
    end
  end
  return grade.classify(got, want, "r1, r2", part, 1e-9, {
    {nohalf, "half: r2 takes away e^2 d^T H d; the Taylor series has e^2/2 d^T H d"},
  })
end

local function check_order(f, _, part)
  local p = points[1]
  local r = stretch:eval(p.x, opts)
  local g = r.gradient[1]
  local gmax, bad, neg = 0, {table.unpack(g)}, {}
  for i = 1, 9 do gmax, neg[i] = math.max(gmax, math.abs(g[i])), -g[i] end
  bad[5] = bad[5] + 1e-3 * gmax
  local o_right = f(C, {table.unpack(g)}, {table.unpack(p.x)}, p.d)
  if o_right == nil then return false, {grade.todo_message(part)} end
  local o_bad, o_neg = f(C, bad, {table.unpack(p.x)}, p.d), f(C, neg, {table.unpack(p.x)}, p.d)
  local said = string.format("orders %.2f (right g), %.2f (g off by 1e-3 in one entry), %.2f (g negated)", o_right, o_bad, o_neg)
  if math.abs(o_right - 2) < 0.15 and math.abs(o_bad - 1) < 0.15 and math.abs(o_neg - 1) < 0.15 then return true end
  if o_right < 0 then
    return false, {"sign: " .. said .. ": the order is log2(r(e) / r(e/2)), the larger e's remainder over the smaller's"}
  end
  if math.abs(o_right - 2) < 0.15 and math.abs(o_bad - 2) < 0.5 then
    return false, {"pre-asymptotic: " .. said .. ": a small error in g only shows at small e, " ..
                   "where e times it outgrows the e^2 term; read the order at the smallest e"}
  end
  return false, {said .. "; expected about 2, 1, 1"}
end

return grade.run{lesson = "402_taylor_test", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "Taylor remainders r1, r2", fn = "remainders", kind = "check", check = check_remainders,
   hints = {"C(x + e d) = C(x) + e g.d + e^2/2 d^T H d + O(e^3): take the terms away one by one.",
            "With dc = C(x + e d) - C(x), gd = sum g[i] d[i], dHd = sum d[i] H[i][j] d[j]: r1 = |dc - e gd|.",
            "Check the second-order term against the Taylor series: what factor does e^2 d^T H d carry? Both remainders are " ..
            "sizes, never negative."}},
  {todo = 2, name = "observed order of r1", fn = "observed_order", kind = "check", check = check_order,
   hints = {"Compute r1 at e = 2^-k for k = 1..20, then the order of each halving.",
            "The order of one halving is math.log(r[k] / r[k + 1], 2); the last four are k = 16..19.",
            "Check where you read the order: the error of a wrong g shows only at small e, so use the last halvings, and a " ..
            "middle value of a few of them so that one rounding spike does not decide."}},
}}
