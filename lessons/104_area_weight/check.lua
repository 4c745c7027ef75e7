-- The grader of lesson 104's exercise (clothcheck lesson 104 --check [DIR] [--hint K]): the
-- force against -k C dC/dx_m from the toolkit's stretch condition, and the area power by the
-- energy of a smoothly stretched square on 4x4 and 8x8 grids. Mistakes named: "sign",
-- "one-component" (the force of C_u or C_v alone), "translation" (forces that do not sum to
-- zero), "scale" (an area power that is not scale-invariant).
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local stretch = cc.condition("stretch", "bw98")
local uv = {{0.0, 0.0}, {1.0, 0.2}, {0.3, 0.9}}
local x = {{0.1, -0.2, 0.05}, {1.3, 0.1, 0.4}, {0.2, 1.1, -0.3}}

local function check_force(f, _, part)
  local r = stretch:eval(x, {uv = uv, area_power = 0.75})
  local got, want, only = {}, {}, {{}, {}}
  for m = 0, 2 do
    local fm = f(r.value, r.gradient, 2.5, m)
    if fm == nil then return false, {grade.todo_message(part)} end
    for s = 1, 3 do
      got[#got + 1] = type(fm) == "table" and fm[s] or fm
      want[#want + 1] = -2.5 * (r.value[1] * r.gradient[1][3 * m + s] + r.value[2] * r.gradient[2][3 * m + s])
      for c = 1, 2 do only[c][#only[c] + 1] = -2.5 * r.value[c] * r.gradient[c][3 * m + s] end
    end
  end
  local ok, lines = grade.classify(got, want, "the forces on vertices 0, 1, 2", part, nil, {
    {only[1], "one-component: the force of C_u alone; E = k/2 (C_u^2 + C_v^2) sums both components of stretch"},
    {only[2], "one-component: the force of C_v alone; E = k/2 (C_u^2 + C_v^2) sums both components of stretch"},
  }, nil, {nv = 3})
  if ok or #got ~= 9 or grade.is_layout(lines) then return ok, lines end
  local net = 0
  for s = 1, 3 do
    local t = 0
    for m = 0, 2 do t = t + (tonumber(got[3 * m + s]) or 0) end
    net = math.max(net, math.abs(t))
  end
  if net > 1e-9 then
    table.insert(lines, 1, string.format("translation: the three forces do not sum to zero (net up to %.3g): moving the " ..
                                         "whole triangle cannot change E, so sum_m dC/dx_m = 0 -- each f_m takes vertex m's " ..
                                         "entries of every dC", net))
  end
  return false, lines
end

-- the stretch energy (k = 1) of x = u + 0.3 u^2, y = v + 0.1 v^2 on an n x n grid
local function energy(n, p)
  local mesh, E = cc.grid(n, n, 1.0, 1.0), 0
  for t = 1, mesh.nt do
    local tri, xs, uvs = {mesh:triangle(t)}, {}, {}
    for m = 1, 3 do
      local u, v = mesh:uv(tri[m])
      xs[m], uvs[m] = {u + 0.3 * u * u, v + 0.1 * v * v, 0}, {u, v}
    end
    local r = stretch:eval(xs, {uv = uvs, area_power = p})
    E = E + 0.5 * (r.value[1] ^ 2 + r.value[2] ^ 2)
  end
  return E
end

local function check_power(p, _, part)
  if p == nil then return false, {grade.todo_message(part)} end
  if type(p) ~= "number" or p <= 0 or p > 4 then return false, {"M.p must be a number in (0, 4]"} end
  local ratio = energy(8, p) / energy(4, p)
  if math.abs(ratio - 1) < 0.05 then return true end
  return false, {string.format("scale: with p = %g the energy changes by a factor %.3g when the triangles are split 1-to-4"
                               .. " (a^(2p - 1) = 4^%g per refinement)", p, ratio, 1 - 2 * p)}
end

return grade.run{lesson = "104_area_weight", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "force f_m = -k C dC/dx_m", fn = "force", kind = "check", check = check_force,
   hints = {"f_m = -dE/dx_m with E = k/2 sum_c C_c^2: differentiate the square.",
            "dE/dx_m = k sum_c C_c dC_c/dx_m (001 (9) and 5.2), summed over both components of stretch.",
            "Check the sign (a force points down the energy) and the sum (both components of stretch), and which three " ..
            "entries of each dC belong to vertex m (m counts from 0)."}},
  {todo = 2, name = "scale-invariant area power", fn = "p", kind = "check", check = check_power,
   hints = {"Count: a 1-to-4 split makes each triangle's area a/4 and their number 4 times larger.",
            "C = a^p (|w| - 1), so one triangle's energy is ~ a^(2p); the total ~ (1/a) a^(2p).",
            "Which p makes the exponent of a in the total energy zero? Check your answer against 003 3.1."}},
}}
