-- The grader of lesson 306's exercise (clothcheck lesson 306 --check [DIR] [--hint K]): the
-- weight against the toolkit's Discrete Shells (its C over the angle's), the gradient of theta
-- against finite differences of theta (001 (30)) with the audit's diagnosis, the quadratic
-- weights against the toolkit's quadratic model (its constant gradient), each on hinges both
-- flat and bent at rest, with the typical mistakes named.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local vec, sub, dot, cross = grade.vec, grade.sub, grade.dot, grade.cross
local function norm(a) return math.sqrt(dot(a, a)) end
local function cot(p, q, w)
  local a, b = sub(q, p), sub(w, p)
  return dot(a, b) / norm(cross(a, b))
end

local exact = cc.condition("bend", "pritchard-exact")
local shells = cc.condition("bend", "discrete-shells")
local quadratic = cc.condition("bend", "quadratic")

-- theta = atan2((nA^ x nB^).e^, nA^.nB^), 001 (24)-(30)
local function theta(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB, e = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
  local la, lb = norm(nA), norm(nB)
  return math.atan(dot(cross(nA, nB), e) / (la * lb * norm(e)), dot(nA, nB) / (la * lb))
end

-- rest hinges: a flat one with unequal wings, two bent ones, one with a long edge
local RESTS = {
  {0.2, 0.9, 0,  0.6, 0, 0,  -0.5, 0, 0,  -0.1, -0.5, 0},
  {0.1, 1.1, 0.2,  0.5, 0, 0,  -0.5, 0, 0,  0.3, -0.8, -0.4},
  {-0.3, 0.4, -0.1,  1, 0.1, 0,  -1, 0, 0.1,  0.2, -0.6, 0.5},
  {0, 0.3, 0,  2, 0, 0,  -1.5, 0, 0,  0.5, -0.2, 0},
}
-- a hinge folded away from its rest (the angle differs, so C / (theta - theta0) is the weight)
local function moved(xr)
  local x = {table.unpack(xr)}
  x[12] = x[12] + 0.3
  x[3] = x[3] - 0.1
  return x
end

-- a rest hinge moved as a whole: its weights must not change
local function moved_rest(fix)
  return {kind = "translation", name = "the rest hinge is moved by t = (0.3, -1.2, 2.5)", fix = fix,
          move = function(args) return {grade.translate(args[1], {0.3, -1.2, 2.5})} end}
end

-- part (1): the weights the toolkit's Discrete Shells uses, and the typical mistakes
local function check_weight(f, _, part)
  local got, want, one, energy, twice = {}, {}, {}, {}, {}
  for i, xr in ipairs(RESTS) do
    local g = f({table.unpack(xr)})
    if g == nil then return false, {grade.todo_message(part)} end
    got[i] = g
    local x = moved(xr)
    want[i] = shells:eval(x, {x_rest = xr}).value[1] / exact:eval(x, {x_rest = xr}).value[1]
    local x0, x1, x2, x3 = vec(xr, 0), vec(xr, 1), vec(xr, 2), vec(xr, 3)
    local lA, lB, le = norm(cross(sub(x2, x0), sub(x1, x0))), norm(cross(sub(x1, x3), sub(x2, x3))), norm(sub(x1, x2))
    one[i] = le * math.sqrt(3 / (0.5 * lA))
    energy[i] = 3 * le * le / (0.5 * (lA + lB))
    twice[i] = le * math.sqrt(3 / (lA + lB))
  end
  if not grade.compare(got, want, "", part, 1e-12) then
    local inv_ok, inv = grade.invariance(f, {RESTS[2]}, "weight", moved_rest(
      "|e| and A come from differences of the rest vertices (x1 - x2, x2 - x0, ...), never a vertex alone"))
    if not inv_ok then return false, inv end
  end
  return grade.classify(got, want, "the weights of 4 rest hinges", part, 1e-12, {
    {one, "one-triangle: A_rest is the two rest triangles' areas summed, not triangle A's alone"},
    {energy, "energy-coefficient: 3 |e|^2 / A is the energy's coefficient; C's weight is its square root"},
    {twice, "area: |nA| + |nB| is twice the two triangles' area"}})
end

-- part (3): the toolkit's quadratic weights (dC_x/dx_{m,x} = sqrt(3/A) K_m), and the typical mistakes
local function check_K(f, _, part)
  local got, want, order, literal = {}, {}, {}, {}
  for _, xr in ipairs(RESTS) do
    local g = f({table.unpack(xr)})
    if g == nil then return false, {grade.todo_message(part)} end
    local grad = quadratic:eval(xr, {x_rest = xr}).gradient[1]
    local K = {grad[1], grad[4], grad[7], grad[10]}
    local x0, x1, x2, x3 = vec(xr, 0), vec(xr, 1), vec(xr, 2), vec(xr, 3)
    local w = math.sqrt(3 / (0.5 * (norm(cross(sub(x2, x0), sub(x1, x0))) + norm(cross(sub(x1, x3), sub(x2, x3))))))
    -- Bergou et al.'s formula with their labels read as ours (their edge x0 x1 taken as our x0 x1)
    local c01, c02, c03, c04 = cot(x0, x1, x2), cot(x0, x1, x3), cot(x1, x0, x2), cot(x1, x0, x3)
    local lit = {w * (c03 + c04), w * (c01 + c02), -w * (c01 + c03), -w * (c02 + c04)}
    for m = 1, 4 do
      got[#got + 1], want[#want + 1] = g[m], K[m]
      literal[#literal + 1] = lit[m]
    end
    for _, m in ipairs{3, 2, 1, 4} do order[#order + 1] = K[m] end
  end
  if not grade.compare(got, want, "", part, 1e-12) then
    local inv_ok, inv = grade.invariance(f, {RESTS[2]}, "K", moved_rest(
      "the cotangents come from differences of the rest vertices, never a vertex alone"))
    if not inv_ok then return false, inv end
  end
  return grade.classify(got, want, "sqrt(3/A) K of 4 rest hinges", part, 1e-12, {
    {order, "order: the right weights in Bergou et al.'s vertex order (x2, x1, x0, x3): map them to ours"},
    {literal, "labels: Bergou et al.'s formula with their labels read as ours; their edge x0 x1 is our x2 x1, their wings x2, x3 our x0, x3"}})
end

-- the derivations as steps for the stepper, on the second rest hinge folded away from rest,
-- one per part: your gradient of theta; Discrete Shells' C = w (theta - theta0) with your
-- weight (dC = w dtheta, w a constant of the rest hinge; dtheta the appendix's); the quadratic
-- model's C = sqrt(3/A) sum K_m (x_m - x_m rest), whose derivative along axis s at x_m is your
-- sqrt(3/A) K_m
local function steps_theta(work)
  return {{name = "theta", equations = "001 (30); Tamstorf & Grinspun 2013 (gradient of theta)",
           value = theta, derivative = function(y) return work.grad_theta({table.unpack(y)}) end}}, moved(RESTS[2])
end

local function steps_C(work)
  local xr = RESTS[2]
  return {{name = "C = w (theta - theta0)", equations = "Grinspun et al. 2003 (hinge energy)",
           value = function(y) return shells:eval(y, {x_rest = xr}).value[1] end,
           derivative = function(y)
             local w, g = work.weight({table.unpack(xr)}), exact:eval(y, {}).gradient[1]
             for i = 1, 12 do g[i] = w * g[i] end
             return g
           end}}, moved(xr)
end

local function steps_quadratic(work)
  local xr = RESTS[2]
  return {{name = "C = sqrt(3/A) sum K_m (x_m - x_m rest)", equations = "Bergou et al. 2006 (Q = (3/A) K K^T)",
           value = function(y) return quadratic:eval(y, {x_rest = xr}).value end,
           derivative = function()
             local K, d = work.quadratic_K({table.unpack(xr)}), {}
             for s = 1, 3 do
               for i = 1, 12 do d[12 * (s - 1) + i] = (i - 1) % 3 + 1 == s and K[(i - 1) // 3 + 1] or 0 end
             end
             return d
           end}}, moved(xr)
end

return grade.run{lesson = "306_discrete_shells", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "Discrete Shells' weight |e| sqrt(3/A)", fn = "weight", kind = "check", check = check_weight, steps = steps_C,
   hints = {"Both lengths come from the rest hinge x_rest, not the moving one.",
            "A triangle's area is half the length of its normal: A_rest = (|nA| + |nB|) / 2.",
            "Check the area: a triangle's is half its normal's length, A_rest is both triangles' summed; and C's weight is " ..
            "the square root of the energy's coefficient 3 |e|^2 / A."}},
  {todo = 2, name = "dtheta/dx by heights and cosines", fn = "grad_theta", nv = 4, value = theta, steps = steps_theta,
   hints = {"A wing vertex moves theta along its own triangle's normal; the edge vertices share the opposite reaction.",
            "h0 = |nA|/|e| (x0's height over the edge), and dtheta/dx0 = -nA^/h0: moving x0 along +nA^ closes the hinge.",
            "Check one vertex at a time against a difference of theta: a wing moves theta only along its own normal (which " ..
            "sign closes the hinge?), and the four vertex blocks sum to zero."}},
  {todo = 3, name = "the quadratic model's weights in our labels", fn = "quadratic_K", kind = "check", check = check_K, steps = steps_quadratic,
   hints = {"Their x0, x1, x2, x3 are our x2, x1, x0, x3: check it on the edge (theirs x0-x1, ours x1-x2).",
            "c01 and c03 are the angles of triangle A (ours: x0, x1, x2) at their x0 and x1, i.e. at our x2 and x1.",
            "Check the four weights: they sum to zero (moving the hinge bends nothing), and each cotangent is the angle at " ..
            "the vertex Bergou et al. name, mapped to our label first."}},
}}
