-- A typical wrong answer to lesson 301: nA = (x2 - x0) x x1, a vertex where the edge x1 - x0 belongs.
-- Expected diagnosis: translation

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
  local nA = unit(cross(sub(x2, x0), x1))                      -- (24), (25)
  local nB = unit(cross(sub(x1, x3), sub(x2, x3)))             -- (26)
  local e = unit(sub(x1, x2))                                  -- (27)
  local c = dot(nA, nB)                                        -- (28)
  local s = dot(cross(nA, nB), e)                              -- (29)
  return math.atan(s, c)                                       -- (30)
end

return M
