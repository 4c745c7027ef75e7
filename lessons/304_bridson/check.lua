-- The grader of lesson 304's exercise (clothcheck lesson 304 --check [DIR] [--hint K]): the
-- gradient against finite differences of theta (001 (30)), with the audit's diagnosis.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"

local vec, sub, dot, cross = grade.vec, grade.sub, grade.dot, grade.cross

-- theta = atan2((nA^ x nB^).e^, nA^.nB^) - theta0, 001 (24)-(30)
local function theta(x, rest)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA, nB, e = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
  local la, lb, le = math.sqrt(dot(nA, nA)), math.sqrt(dot(nB, nB)), math.sqrt(dot(e, e))
  local c = dot(nA, nB) / (la * lb)
  local s = dot(cross(nA, nB), e) / (la * lb * le)
  return math.atan(s, c) - rest.rest_angle
end

return grade.run{lesson = "304_bridson", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "dtheta/dx by u_0..u_3", fn = "gradient", nv = 4, value = theta,
   hints = {"Write u_0..u_3 of 002's \"Force Directions\" with a = nA/|nA|^2, b = nB/|nB|^2, e^ = e/|e|.",
            "u0 = |e| a, u3 = |e| b, u1 = -((x0 - x2).e^) a - ((x3 - x2).e^) b, u2 = ((x0 - x1).e^) a + ((x3 - x1).e^) b.",
            "004's d theta/dx_i = u_i measures the angle the other way: for theta of (30) the gradient is -u_i."}},
}}
