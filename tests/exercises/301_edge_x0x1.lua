-- A typical wrong answer to lesson 301: the hinge read with the shared edge x0-x1, wings x2 (A) and x3 (B).
-- Expected diagnosis: relabelled

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function unit(a) local l = math.sqrt(dot(a, a)); return {a[1] / l, a[2] / l, a[3] / l} end
M.vec, M.sub, M.dot, M.cross, M.unit = vec, sub, dot, cross, unit

-- (1): theta = atan2(sin, cos): the sign from sin theta (29), full precision at small folds
function M.theta(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  -- the shared edge taken as x0-x1, the wings x2 (triangle A) and x3 (B)
  local nA = unit(cross(sub(x1, x2), sub(x0, x2)))             -- (24), (25)
  local nB = unit(cross(sub(x0, x3), sub(x1, x3)))             -- (26)
  local e = unit(sub(x0, x1))                                  -- (27)
  local c = dot(nA, nB)                                        -- (28)
  local s = dot(cross(nA, nB), e)                              -- (29)
  return math.atan(s, c)                                       -- (30)
end

return M
