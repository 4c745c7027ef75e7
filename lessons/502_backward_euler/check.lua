-- The grader of lesson 502's exercise (clothcheck lesson 502 --check [DIR] [--hint K]): the
-- force Jacobian, the system A, b and the step against the right values on stretched and
-- compressed springs, the step from rest also against the simulator's (a 2 x 2 grid with two
-- particles pinned and a spring between the other two). Mistakes named: "translation" (df/dx
-- that changes when the spring is moved), "sign" (the energy
-- Hessian for df/dx, or + h^2 df/dx in A), "off-rest" (df/dx without its C d2C term),
-- "rhs" (b without h df/dx v0), "explicit-position" (x1 = x0 + h v0), "acceleration" (v1 =
-- v0 + h dv). A failing part also names the step of the derivation it departs at.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local spring = cc.condition("spring", "linear")
local K_S, L, H = 200, 1, 0.05
local MASS = {0.1 / 3, 0.05 / 3}          -- the 2 x 2 grid's lumped masses (density 0.1)
local cases = {
  {x = {0, 0, 0,  1.3, 0.2, 0.1}, v = {0, 0, 0,  0.5, -0.2, 0}},
  {x = {0.1, 0, 0,  0.8, 0.1, -0.1}, v = {0.2, 0.1, 0,  -0.3, 0.2, 0.4}},   -- compressed
}

-- the right df/dx (rows), with and without C d2C
local function jacobian(x, full)
  local r = spring:eval(x, {rest = L})
  local C, g, Hs = r.value[1], r.gradient[1], r.hessian[1]
  local K = {}
  for i = 1, 6 do
    for j = 1, 6 do K[6 * (i - 1) + j] = -K_S * (g[i] * g[j] + (full and C * Hs[i][j] or 0)) end
  end
  return K, C, g
end

-- the right A, b; variants: sign = -1 puts + h^2 K in A, norhs leaves out h K v0
local function system(x, v, sign, norhs)
  local K, C, g = jacobian(x, true)
  local A, b = {}, {}
  for i = 1, 6 do
    b[i] = -K_S * C * g[i]
    for j = 1, 6 do
      A[6 * (i - 1) + j] = (i == j and MASS[(i - 1) // 3 + 1] or 0) - sign * H * H * K[6 * (i - 1) + j]
      if not norhs then b[i] = b[i] + H * K[6 * (i - 1) + j] * v[j] end
    end
    b[i] = H * b[i]
  end
  return A, b
end

local function check_jacobian(f, _, part)
  local got, want, energy_h, gn = {}, {}, {}, {}
  for _, c in ipairs(cases) do
    local K = f({table.unpack(c.x)}, K_S, L)
    if K == nil then return false, {grade.todo_message(part)} end
    if type(K) ~= "table" or #K ~= 36 then error("force_jacobian must return 36 numbers", 0) end
    local Kr, Kg = jacobian(c.x, true), jacobian(c.x, false)
    for i = 1, 36 do got[#got + 1], want[#want + 1], energy_h[#energy_h + 1], gn[#gn + 1] = K[i], Kr[i], -Kr[i], Kg[i] end
  end
  if not grade.compare(got, want, "", part, 1e-12) then
    local inv_ok, inv = grade.invariance(function(x) return f(x, K_S, L) end, {cases[1].x}, "df/dx", {
      kind = "translation", name = "the spring is moved by t = (0.3, -1.2, 2.5)",
      move = function(args) return {grade.translate(args[1], {0.3, -1.2, 2.5})} end,
      fix = "the spring's direction and length come from x1 - x0, never from a vertex alone"})
    if not inv_ok then return false, inv end
  end
  return grade.classify(got, want, "df/dx", part, 1e-12, {
    {energy_h, "sign: this is the energy Hessian d2E/dx2; the force is -dE/dx, so df/dx = -d2E/dx2"},
    {gn, "off-rest: only -k dC/dx dC/dx^T: right at rest length (C = 0), wrong when the spring is stretched " ..
      "or compressed; the product rule also gives -k C d2C/dx2"},
  }, nil, {nv = 2, matrix = true})
end

local function check_system(f, _, part)
  local ga, gb, wa, wb, sa, nb = {}, {}, {}, {}, {}, {}
  for _, c in ipairs(cases) do
    local A, b = f({table.unpack(c.x)}, {table.unpack(c.v)}, {table.unpack(MASS)}, H, K_S, L)
    if A == nil then return false, {grade.todo_message(part)} end
    if type(A) ~= "table" or #A ~= 36 or type(b) ~= "table" or #b ~= 6 then
      error("system must return A (36 numbers) and b (6 numbers)", 0)
    end
    local Ar, br = system(c.x, c.v, 1, false)
    local As = system(c.x, c.v, -1, false)
    local _, bn = system(c.x, c.v, 1, true)
    for i = 1, 36 do ga[#ga + 1], wa[#wa + 1], sa[#sa + 1] = A[i], Ar[i], As[i] end
    for i = 1, 6 do gb[#gb + 1], wb[#wb + 1], nb[#nb + 1] = b[i], br[i], bn[i] end
  end
  local okA, linesA = grade.compare(ga, wa, "A", part, 1e-12, {nv = 2, matrix = true})
  if not okA then
    if not grade.is_layout(linesA) and grade.compare(ga, sa, "", part, 1e-12) then
      return false, {"sign: A = M + h^2 df/dx; backward Euler subtracts: M dv = h f(x1) and f(x1) ~ f0 + df/dx h (v0 + dv)"}
    end
    return false, linesA
  end
  local okb, linesb = grade.compare(gb, wb, "b", part, 1e-12, {nv = 2})
  if okb then return true end
  if grade.compare(gb, nb, "", part, 1e-12) then
    return false, {"rhs: b = h f0 only: the positions also move by h v0 during the step, which adds h df/dx v0 to the force"}
  end
  return false, linesb
end

local function check_step(f, work, part)
  local got, want, expl, accel = {}, {}, {}, {}
  -- the simulator's step from rest: a 2 x 2 grid, particles 3 and 4 pinned, a spring 1-2
  local mesh = cc.grid(2, 2, 1, 1)
  mesh:set_position(2, 1.3, 0.2, 0.1)
  local sim = cc.sim(mesh, {k_stretch = 0, k_shear = 0, k_bend = 0, d_stretch = 0, d_shear = 0, d_bend = 0,
                            gravity = {0, 0, 0}, density = 0.1, h = H, cg_tol = 1e-14, stretch_limit = 1e9})
  sim:pin(3); sim:pin(4)
  sim:add_condition(spring, {{1, 2}}, K_S)
  assert(sim:step())
  local xs = sim:positions()
  local all = {{x = cases[1].x, v = {0, 0, 0, 0, 0, 0}, sim = {table.unpack(xs, 1, 6)}}, cases[1], cases[2]}
  for _, c in ipairs(all) do
    local x1, v1 = f({table.unpack(c.x)}, {table.unpack(c.v)}, {table.unpack(MASS)}, H, K_S, L)
    if x1 == nil then return false, {grade.todo_message(part)} end
    if type(x1) ~= "table" or #x1 ~= 6 or type(v1) ~= "table" or #v1 ~= 6 then
      error("step must return x1 and v1 (6 numbers each)", 0)
    end
    local A, b = system(c.x, c.v, 1, false)
    local dv = work.solve(A, b)
    for i = 1, 6 do
      local vr = c.v[i] + dv[i]
      got[#got + 1], want[#want + 1], expl[#expl + 1] = x1[i], c.sim and c.sim[i] or c.x[i] + H * vr, c.x[i] + H * c.v[i]
      accel[#accel + 1] = c.x[i] + H * (c.v[i] + H * dv[i])
    end
    for i = 1, 6 do
      got[#got + 1], want[#want + 1], expl[#expl + 1] = v1[i], c.v[i] + dv[i], c.v[i] + dv[i]
      accel[#accel + 1] = c.v[i] + H * dv[i]
    end
  end
  return grade.classify(got, want, "x1, v1 (the first case against the simulator's step)", part, 1e-11, {
    {expl, "explicit-position: x1 = x0 + h v0 moves with the old velocity; backward Euler's x1 = x0 + h v1"},
    {accel, "acceleration: v1 = v0 + h dv; dv is the change of velocity over the step (M dv = h f), not an acceleration: v1 = v0 + dv"},
  })
end

-- the derivation as steps for the stepper, on the stretched spring moving (the first case),
-- each part's own: f = -k C dC/dx, whose derivative is your df/dx; the linearised residual
-- r(dv) = M dv - h (f0 + h df/dx (v0 + dv)) of the Newton step, whose derivative in dv is
-- your A and whose value at dv = 0 is -b; then v1 and x1 (not derivatives: compared with the
-- right values)
local function steps_f(work)
  local c = cases[1]
  return {{name = "f = -k C dC/dx", equations = "004; 001 5.2",
           value = function(y)
             local r = spring:eval(y, {rest = L})
             local f = {}
             for i = 1, 6 do f[i] = -K_S * r.value[1] * r.gradient[1][i] end
             return f
           end,
           derivative = function(y) return work.force_jacobian({table.unpack(y)}, K_S, L) end}}, {table.unpack(c.x)}
end

local function steps_system(work)
  local c = cases[1]
  local K = jacobian(c.x, true)
  local _, br = system(c.x, c.v, 1, false)
  local function mine()
    return work.system({table.unpack(c.x)}, {table.unpack(c.v)}, {table.unpack(MASS)}, H, K_S, L)
  end
  return {
    {name = "r(dv) = M dv - h (f0 + h df/dx (v0 + dv))", equations = "001 5.2; 003 3.2",
     value = function(dv)
       local r = {}
       for i = 1, 6 do
         r[i] = MASS[(i - 1) // 3 + 1] * dv[i] - br[i]
         for j = 1, 6 do r[i] = r[i] - H * H * K[6 * (i - 1) + j] * dv[j] end
       end
       return r
     end,
     derivative = function() return (mine()) end},
    {name = "b = h (f0 + h df/dx v0)", equations = "001 5.2; 003 3.2", tol = 1e-12,
     value = function() return select(2, mine()) end, right = function() return br end},
  }, {0.01, -0.02, 0.03, -0.01, 0.02, 0.01}
end

local function steps_step(work)
  local c = cases[1]
  local A, b = system(c.x, c.v, 1, false)
  local dv = work.solve(A, b)
  local v1, x1 = {}, {}
  for i = 1, 6 do v1[i] = c.v[i] + dv[i]; x1[i] = c.x[i] + H * v1[i] end
  local function mine() return work.step({table.unpack(c.x)}, {table.unpack(c.v)}, {table.unpack(MASS)}, H, K_S, L) end
  return {
    {name = "v1 = v0 + dv", equations = "001 5.2; 003 3.2", tol = 1e-11,
     value = function() return select(2, mine()) end, right = function() return v1 end},
    {name = "x1 = x0 + h v1", equations = "001 5.2; 003 3.2", tol = 1e-11,
     value = function() return (mine()) end, right = function() return x1 end},
  }
end

return grade.run{lesson = "502_backward_euler", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "df/dx of the spring", fn = "force_jacobian", kind = "check", check = check_jacobian, steps = steps_f,
   hints = {"f = -k C dC/dx: differentiate the product.",
            "df/dx = -k (dC/dx dC/dx^T + C d2C/dx2): an outer product and the condition's Hessian.",
            "Check the sign (f = -dE/dx) and the term that vanishes at rest length: test a stretched spring, where C is not 0."}},
  {todo = 2, name = "the system A, b", fn = "system", kind = "check", check = check_system, steps = steps_system,
   hints = {"Backward Euler: M dv = h f(x1, v1), with f(x1) ~ f0 + df/dx (x1 - x0) and x1 - x0 = h (v0 + dv).",
            "Move the dv terms left: (M - h^2 df/dx) dv = h (f0 + h df/dx v0).",
            "Check both places df/dx enters: A subtracts it (times h^2), and b has the force change from the positions' " ..
            "motion during the step as well as f0."}},
  {todo = 3, name = "the step x1, v1", fn = "step", kind = "check", check = check_step, steps = steps_step,
   hints = {"Solve A dv = b with M.solve, then update velocities, then positions.",
            "v1 = v0 + dv; the positions move with the new velocity.",
            "Check the order of the updates: which velocity moves the positions in backward Euler, the old or the new?"}},
}}
