-- A typical wrong answer to lesson 403: the exact Hessian with both seeds, e1 and e2, on x_i.
-- Expected diagnosis: seed

local M = {}

local HD = {}
HD.__index = HD
M.HD = HD
function M.hd(a, b, c, d) return setmetatable({a, b or 0, c or 0, d or 0}, HD) end
local hd = M.hd
local function lift(v) return getmetatable(v) == HD and v or hd(v) end
HD.__add = function(p, q) p, q = lift(p), lift(q); return hd(p[1] + q[1], p[2] + q[2], p[3] + q[3], p[4] + q[4]) end
HD.__sub = function(p, q) p, q = lift(p), lift(q); return hd(p[1] - q[1], p[2] - q[2], p[3] - q[3], p[4] - q[4]) end
HD.__unm = function(p) return hd(-p[1], -p[2], -p[3], -p[4]) end

-- (1): e1 e1 = e2 e2 = 0 drop b b' and c c'; e1 e2 collects a d' + b c' + c b' + d a'
HD.__mul = function(p, q)
  p, q = lift(p), lift(q)
  return hd(p[1] * q[1], p[1] * q[2] + p[2] * q[1], p[1] * q[3] + p[3] * q[1],
            p[1] * q[4] + p[2] * q[3] + p[3] * q[2] + p[4] * q[1])
end

-- (2): t^2 = 2 b c e1e2, so f(p) = f(a) + f'(a) (b e1 + c e2) + (f'(a) d + f''(a) b c) e1e2;
-- for the square root f' = 1/(2 sqrt a), f'' = -1/(4 a sqrt a)
function M.sqrt(p)
  if getmetatable(p) ~= HD then return math.sqrt(p) end
  local s = math.sqrt(p[1])
  local f1, f2 = 0.5 / s, -0.25 / (s * p[1])
  return hd(s, f1 * p[2], f1 * p[3], f1 * p[4] + f2 * p[2] * p[3])
end

-- (3): f(x + e1 e_i + e2 e_j) = f + df/dx_i e1 + df/dx_j e2 + d2f/dx_i dx_j e1e2, exactly
function M.hessian(f, x)
  local n, H = #x, {}
  for i = 1, n do
    for j = 1, n do
      local y = {}
      for k = 1, n do y[k] = hd(x[k], k == i and 1 or 0, k == i and 1 or 0) end
      H[n * (i - 1) + j] = f(y)[4]
    end
  end
  return H
end

return M
