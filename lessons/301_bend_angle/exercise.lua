-- Lesson 301 exercise: the signed bend angle of a hinge, 001 (24)-(30).
--
-- Fill in the function below, then grade it:
--   clothcheck lesson 301 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 301 --check --hint 2   (a more specific hint)
--
-- x is the hinge, 12 numbers: x0 = x[1..3], x1 = x[4..6], x2 = x[7..9], x3 = x[10..12]. The
-- shared edge is x1-x2; x0 is in triangle A, x3 in triangle B (001 Figure 1).

local M = {}

local function vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
local function sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function unit(a) local l = math.sqrt(dot(a, a)); return {a[1] / l, a[2] / l, a[3] / l} end
M.vec, M.sub, M.dot, M.cross, M.unit = vec, sub, dot, cross, unit

-- TODO (1): theta in (-pi, pi], 001 (30), from the normals (24)-(26), the edge (27) and
-- cos theta (28), sin theta (29). It must be signed (a fold one way is -(the other way)) and
-- right for folds as small as 1e-9 rad.
function M.theta(x)
  local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
  -- your code here
  return nil
end

return M
