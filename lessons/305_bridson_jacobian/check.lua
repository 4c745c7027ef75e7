-- The grader of lesson 305's exercise (clothcheck lesson 305 --check [DIR] [--hint K]): dA/dx
-- against finite differences of A with the audit's diagnosis; the Jacobian against the
-- toolkit's closed form (clothcheck.bridson_force) on hinges away from and at rest. Mistakes
-- named: "transposed" (dF_j/dx_i in entry (i, j)), "symmetrised" ((J + J^T)/2, the part the
-- simulator uses), "off-rest" (no A sigma du term: right at rest only), or how far off.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local vec, sub, dot, cross = grade.vec, grade.sub, grade.dot, grade.cross

-- A = |e|^2 / (|nA| + |nB|)
local function A(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB, e = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
  return dot(e, e) / (math.sqrt(dot(nA, nA)) + math.sqrt(dot(nB, nB)))
end

local hinges = {
  {x = {-0.9, 0.15, 0.05,  0.05, -0.55, 0.02,  -0.02, 0.7, -0.04,  0.6, 0.3, 0.75}, theta0 = 0.3},
  {x = {-1.1, -0.2, 0.3,  0.1, -0.6, -0.1,  0.0, 0.8, 0.1,  0.9, 0.1, -0.5}, theta0 = -0.4},
  {x = {-0.9, 0.15, 0.05,  0.05, -0.55, 0.02,  -0.02, 0.7, -0.04,  0.6, 0.3, 0.75}, theta0 = "rest"},
}

local function check_jacobian(f, work, part)
  local K = 1.7
  local got, want, trans, sym, norest = {}, {}, {}, {}, {}
  for _, c in ipairs(hinges) do
    local th, dth = work.theta(c.x)
    local theta0 = c.theta0 == "rest" and th or c.theta0
    local J = f({table.unpack(c.x)}, theta0, K)
    if J == nil then return false, {grade.todo_message(part)} end
    if type(J) ~= "table" or #J ~= 144 then error("jacobian must return 144 numbers", 0) end
    local R = cc.bridson_force(c.x, {rest = theta0, k = K}).jacobian
    local a, c2 = A(c.x), math.cos(th / 2) / 2
    local sigma = math.sin(th / 2) - math.sin(theta0 / 2)
    local dA = {}
    for j = 1, 12 do                       -- dA by central differences: only to name a mistake
      local xp, xm = {table.unpack(c.x)}, {table.unpack(c.x)}
      xp[j], xm[j] = xp[j] + 1e-6, xm[j] - 1e-6
      dA[j] = (A(xp) - A(xm)) / 2e-6
    end
    for i = 1, 12 do
      for j = 1, 12 do
        got[#got + 1], want[#want + 1] = J[12 * (i - 1) + j], R[i][j]
        trans[#trans + 1], sym[#sym + 1] = R[j][i], (R[i][j] + R[j][i]) / 2
        norest[#norest + 1] = K * -dth[i] * (sigma * dA[j] + a * c2 * dth[j])
      end
    end
  end
  return grade.classify(got, want, "dF/dx", part, 1e-10, {
    {trans, "transposed: entry (i, j) is dF_i/dx_j; yours holds dF_j/dx_i -- the Jacobian is not symmetric, so the order matters"},
    {sym, "symmetrised: this is (J + J^T)/2, the part the simulator's symmetric solver uses; the Jacobian itself is not symmetric"},
    {norest, "off-rest: right at rest, wrong away from it: u_i moves too -- the product rule gives A sigma du_i/dx_j as well", 1e-6},
  }, "(it uses grad_A of part (1))", {nv = 4, matrix = true})
end

-- the derivation as steps for the stepper, on the first hinge (theta0 = 0.3, away from rest),
-- one per part (the Jacobian is graded with the worked dA/dx): A by the quotient rule, and
-- F_i = k A sigma u_i by the product rule, row i of your Jacobian the derivative of F_i
local function steps_A(work)
  return {{name = "A", equations = "002 Force Magnitude; 004",
           value = function(y) return A(y) end,
           derivative = function(y) return work.grad_A({table.unpack(y)}) end}}, {table.unpack(hinges[1].x)}
end
local function steps_F(work)
  local c, K = hinges[1], 1.7
  return {{name = "F_i = k A sigma u_i", equations = "004; 002 Force Magnitude, Force Directions",
           value = function(y) return cc.bridson_force(y, {rest = c.theta0, k = K}).force end,
           derivative = function(y) return work.jacobian({table.unpack(y)}, c.theta0, K) end}}, {table.unpack(c.x)}
end

return grade.run{lesson = "305_bridson_jacobian", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "dA/dx", fn = "grad_A", nv = 4, value = function(x) return A(x) end, steps = steps_A,
   hints = {"A = |e|^2 / s with s = |nA| + |nB|: the quotient rule.",
            "d|e|^2 = 2 e . (dx1 - dx2); d|nA| = nA^ . d nA = the gradient of (nA^ . nA) with nA^ held fixed: M.grad_dot_nA(x, nA^).",
            "Check the two terms of the quotient rule: d|e|^2 lives on x1 and x2 only (with opposite signs, e = x1 - x2), " ..
            "and the d|nA| + d|nB| term carries |e|^2 / s^2 with a minus."}},
  {todo = 2, name = "dF/dx, Bridson's force", fn = "jacobian", kind = "check", check = check_jacobian, steps = steps_F,
   hints = {"F_i = k (A sigma) u_i: the product of a scalar and a vector, both depending on x.",
            "d(A sigma) = sigma dA + A cos(theta/2)/2 dtheta, and du_i/dx_j = -d2theta_ij.",
            "Check the term that vanishes at rest (sigma = 0): is it there? And the order: row i is the force F_i, column j " ..
            "the position x_j; the Jacobian is not symmetric."}},
}}
