-- Lesson 302 exercise: the frozen-magnitude theta of 001 Section 4, and the exact gradient
-- of theta from Pritchard's (54) and the term the approximation drops.
--
-- Fill in the two functions below, then grade them:
--   clothcheck lesson 302 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 302 --check --hint 2   (a more specific hint for the first failing part)
--
-- Positions are flat lists of 12 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9],
-- x3 = x[10..12]; shared edge x1-x2, x0 in triangle A, x3 in triangle B (001 (24)-(27)).

local cc = require "clothcheck"

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function len(a) return math.sqrt(dot(a, a)) end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function scale(a, k) return {a[1] * k, a[2] * k, a[3] * k} end
M.vec, M.sub, M.dot, M.len, M.cross, M.scale = vec, sub, dot, len, cross, scale

-- nA, nB, e of (25)-(27), unnormalised
function M.vectors(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  return cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
end

-- Pritchard's gradient (54), from the toolkit: 12 numbers
function M.gradient_54(x) return cc.condition("bend", "pritchard"):eval(x, {}).gradient[1] end

-- TODO (1): the frozen-magnitude theta of 001 Section 4: theta (30) of positions y, with
-- the vectors of y divided by the lengths they have at positions xf (not at y). Its central
-- differences at y = xf are what (54) is the derivative of.
function M.frozen_theta(y, xf)
  local nA, nB, e = M.vectors(y)
  local fA, fB, fe = M.vectors(xf)
  -- your code here
  return nil
end

-- TODO (2): the exact gradient d theta/dx of the true theta (30), 12 numbers: (54) minus
-- what the constant-magnitude assumption (40)-(45) adds. Work out that term (the README's
-- "What it drops"), then subtract it from M.gradient_54(x).
function M.exact_gradient(x)
  local g = M.gradient_54(x)
  -- your code here
  return nil
end

return M
