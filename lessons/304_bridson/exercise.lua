-- Lesson 304 exercise: Bridson's directions as the gradient of the bend angle (002 "Force
-- Directions", 004), in Pritchard's labels and sign.
--
-- Fill in the function below, then grade it:   clothcheck lesson 304 --check
--
-- x is the hinge, 12 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9], x3 = x[10..12]; the
-- shared edge is x1-x2, x0 is in triangle A, x3 in triangle B (001 (24)-(27)):
--   nA = (x2 - x0) x (x1 - x0),  nB = (x1 - x3) x (x2 - x3),  e = x1 - x2
-- and theta = atan2((nA^ x nB^) . e^, nA^ . nB^) (001 (30)).

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
M.vec, M.sub, M.dot, M.cross = vec, sub, dot, cross

-- TODO (1): d theta/dx, 12 numbers (vertex 0 x, y, z, then vertex 1, ...), from Bridson's
-- closed-form directions u_0..u_3 (002 "Force Directions"; 004 writes them u_1..u_4).
-- Mind the sign: compare 004's d theta/dx_i = u_i with the angle of (30).
function M.gradient(x, rest)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA = cross(sub(x2, x0), sub(x1, x0))
  local nB = cross(sub(x1, x3), sub(x2, x3))
  local e = sub(x1, x2)
  -- your code here
  return nil
end

return M
