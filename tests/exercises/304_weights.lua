-- A typical wrong answer to lesson 304: u1 and u2 weighted by |e| like u0 and u3.
-- Expected diagnosis: localized
--
-- With a = nA/|nA|^2, b = nB/|nB|^2 and e^ = e/|e| (002 "Force Directions", 004):
--   u0 = |e| a,  u3 = |e| b,
--   u1 = -((x0 - x2).e^) a - ((x3 - x2).e^) b,   u2 = ((x0 - x1).e^) a + ((x3 - x1).e^) b
-- 004 says d theta/dx_i = u_i; for Pritchard's theta of (30) it is -u_i (lesson 304 measures it).

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
M.vec, M.sub, M.dot, M.cross = vec, sub, dot, cross

-- the sign of Pritchard's theta against Bridson's directions
M.sign = -1

function M.gradient(x, rest)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  local nA = cross(sub(x2, x0), sub(x1, x0))
  local nB = cross(sub(x1, x3), sub(x2, x3))
  local e = sub(x1, x2)
  local le = math.sqrt(dot(e, e))
  local eh = {e[1] / le, e[2] / le, e[3] / le}
  local la, lb = dot(nA, nA), dot(nB, nB)
  local kA = {le, -le, le, 0}
  local kB = {0, -le, le, le}
  local g = {}
  for m = 1, 4 do
    for s = 1, 3 do g[3 * (m - 1) + s] = M.sign * (kA[m] * nA[s] / la + kB[m] * nB[s] / lb) end
  end
  return g
end

return M
