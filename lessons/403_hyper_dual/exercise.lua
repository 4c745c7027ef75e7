-- Lesson 403 exercise: hyper-dual numbers, and an exact Hessian from them.
--
-- Fill in the three blanks below, then grade them:
--   clothcheck lesson 403 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 403 --check --hint 2   (a more specific hint for the first failing part)
--
-- A hyper-dual number is {a, b, c, d} = a + b e1 + c e2 + d e1e2, with e1^2 = e2^2 = 0 and
-- e1e2 = e2e1 != 0. M.hd(a, b, c, d) makes one; arithmetic on them uses M.HD's metatable.

local M = {}

local HD = {}
HD.__index = HD
M.HD = HD
function M.hd(a, b, c, d) return setmetatable({a, b or 0, c or 0, d or 0}, HD) end
local hd = M.hd
local function lift(v) return type(v) == "table" and v or hd(v) end
HD.__add = function(p, q) p, q = lift(p), lift(q); return hd(p[1] + q[1], p[2] + q[2], p[3] + q[3], p[4] + q[4]) end
HD.__sub = function(p, q) p, q = lift(p), lift(q); return hd(p[1] - q[1], p[2] - q[2], p[3] - q[3], p[4] - q[4]) end
HD.__unm = function(p) return hd(-p[1], -p[2], -p[3], -p[4]) end

-- TODO (1): the product (a + b e1 + c e2 + d e1e2)(a' + b' e1 + c' e2 + d' e1e2): multiply
-- out and keep what e1^2 = e2^2 = 0 leaves, 4 parts
HD.__mul = function(p, q)
  p, q = lift(p), lift(q)
  -- your code here: return hd(..., ..., ..., ...)
  return nil
end

-- TODO (2): the square root of a hyper-dual p = a + b e1 + c e2 + d e1e2 (a > 0). A smooth f
-- of a hyper-dual is f(a + t) with t = b e1 + c e2 + d e1e2 and t^3 = 0: Taylor's series to
-- second order, f(a) + f'(a) t + f''(a) t^2 / 2.
function M.sqrt(p)
  if type(p) == "number" then return math.sqrt(p) end
  -- your code here
  return nil
end

-- TODO (3): the Hessian of f at x (a list of n numbers), n x n as n*n numbers row by row,
-- exactly: evaluate f at hyper-dual positions and read the e1e2 part. f takes a list and
-- uses only +, -, * and M.sqrt, so it works on numbers and hyper-duals alike.
function M.hessian(f, x)
  -- your code here
  return nil
end

return M
