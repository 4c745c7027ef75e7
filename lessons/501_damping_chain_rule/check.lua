-- The grader of lesson 501's exercise (clothcheck lesson 501 --check [DIR] [--hint K]): C-dot
-- against the toolkit's gradient dotted with v (and a time difference of C), the damping force
-- and its velocity Jacobian against the right values on general, translating and rotating
-- motions. A wrong answer is named: "per-particle" (each particle damped by its own rate
-- dC/dx_m . v_m, Pritchard's first form in 001 5.2), "translation" (forces that do not sum to
-- zero), or sign/scale/how far off.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local bend = cc.condition("bend", "pritchard-exact")
local KD = 0.7

-- (x, v) pairs: a general motion, a rigid translation and a rigid rotation of two hinges
local function cases()
  local hinges = {{-0.9, 0.15, 0.05,  0.05, -0.55, 0.02,  -0.02, 0.7, -0.04,  0.6, 0.3, 0.75},
                  {-1.0, -0.1, 0.3,  0.1, -0.6, -0.1,  0.0, 0.8, 0.1,  0.9, 0.1, -0.5}}
  local out = {}
  for _, x in ipairs(hinges) do
    local general = {0.3, -0.1, 0.2,  -0.2, 0.05, 0.1,  0.1, 0.2, -0.3,  0.0, -0.4, 0.25}
    local translate, rotate, w = {}, {}, {0.3, -0.7, 0.5}
    for m = 0, 3 do
      local r = grade.cross(w, grade.vec(x, m))
      for s = 1, 3 do translate[3 * m + s], rotate[3 * m + s] = ({0.1, 0.2, -1.0})[s], r[s] end
    end
    for _, v in ipairs({general, translate, rotate}) do out[#out + 1] = {x = x, v = v} end
  end
  return out
end

local function right(x, v)
  local g = bend:eval(x, {}).gradient[1]
  local c, per = 0, {0, 0, 0, 0}
  for i = 1, 12 do
    c = c + g[i] * v[i]
    per[(i - 1) // 3 + 1] = per[(i - 1) // 3 + 1] + g[i] * v[i]
  end
  return g, c, per
end

-- call f on every case, concatenating its lists (or numbers); nil while the TODO is open
local function collect(f, n, args)
  local got = {}
  for _, k in ipairs(cases()) do
    local r = f({table.unpack(k.x)}, {table.unpack(k.v)}, args)
    if r == nil then return nil end
    if type(r) == "number" then r = {r} end
    if type(r) ~= "table" or #r ~= n then error(string.format("must return %d number%s", n, n == 1 and "" or "s"), 0) end
    for i = 1, n do got[#got + 1] = r[i] end
  end
  return got
end

local function check_cdot(f, _, part)
  local got = collect(f, 1)
  if not got then return false, {grade.todo_message(part)} end
  local want, per_m = {}, {}
  for i, k in ipairs(cases()) do
    local _, c, per = right(k.x, k.v)
    want[i] = c
    for m = 1, 4 do per_m[m] = per_m[m] or {}; per_m[m][i] = per[m] end
    -- the toolkit's gradient against a time difference of C along the motion
    local tau, xp, xm = 1e-6, {}, {}
    for j = 1, 12 do xp[j], xm[j] = k.x[j] + tau * k.v[j], k.x[j] - tau * k.v[j] end
    assert(math.abs((bend:eval(xp, {}).value[1] - bend:eval(xm, {}).value[1]) / (2 * tau) - c) < 1e-8)
  end
  local ok, lines = grade.compare(got, want, "C-dot", part, 1e-10)
  if ok then return true end
  for m = 1, 4 do
    if grade.compare(got, per_m[m], "C-dot", part, 1e-10) then
      return false, {string.format("per-particle: C-dot is particle %d's rate dC/dx_%d . v_%d alone; (58) sums all four", m - 1, m - 1, m - 1)}
    end
  end
  return false, lines
end

-- the student's forces: their net force on a general motion, and the per-particle form
local function check_force(f, _, part)
  local got = collect(f, 12, KD)
  if not got then return false, {grade.todo_message(part)} end
  local want, per_form = {}, {}
  for _, k in ipairs(cases()) do
    local g, c, per = right(k.x, k.v)
    for i = 1, 12 do
      want[#want + 1] = -KD * g[i] * c
      per_form[#per_form + 1] = -KD * g[i] * per[(i - 1) // 3 + 1]
    end
  end
  local ok, lines = grade.compare(got, want, "the damping force", part, 1e-10, {nv = 4})
  if ok then return true end
  if grade.is_layout(lines) then return false, lines end
  if grade.compare(got, per_form, "", part, 1e-10) then
    return false, {"per-particle: each particle is damped by its own rate dC/dx_m . v_m (001 5.2's first form): " ..
                   "it drags on rigid translations and rotations and its forces do not sum to zero; use one C-dot, (58)"}
  end
  local net = 0
  for c = 0, #got // 12 - 1 do
    for s = 1, 3 do
      local f_s = 0
      for m = 0, 3 do f_s = f_s + got[12 * c + 3 * m + s] end
      net = math.max(net, math.abs(f_s))
    end
  end
  if net > 1e-9 then lines[#lines + 1] = string.format("translation: the four forces do not sum to zero (net up to %.3g)", net) end
  return false, lines
end

local function check_jacobian(f, _, part)
  local got = collect(f, 144, KD)
  if not got then return false, {grade.todo_message(part)} end
  local want, blockdiag = {}, {}
  for _, k in ipairs(cases()) do
    local g = right(k.x, k.v)
    for i = 1, 12 do
      for j = 1, 12 do
        want[#want + 1] = -KD * g[i] * g[j]
        blockdiag[#blockdiag + 1] = (i - 1) // 3 == (j - 1) // 3 and -KD * g[i] * g[j] or 0
      end
    end
  end
  return grade.classify(got, want, "dd/dv", part, 1e-10, {
    {blockdiag, "per-particle: only the diagonal blocks -k_d g_m g_m^T: the Jacobian of per-particle damping; " ..
      "C-dot of (58) depends on every particle's velocity"},
  }, nil, {nv = 4, matrix = true})
end

return grade.run{lesson = "501_damping_chain_rule", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "C-dot, 001 (58)", fn = "cdot", kind = "check", check = check_cdot,
   hints = {"C depends on every particle's position, and every particle moves.",
            "The chain rule: dC/dt = sum over m of dC/dx_m . dx_m/dt.",
            "Check it on a rigid translation: C does not change, so C-dot must be 0 -- and it must count every particle's " ..
            "velocity, not one."}},
  {todo = 2, name = "damping force", fn = "damping_force", kind = "check", check = check_force,
   hints = {"One scalar C-dot for the whole element, times each particle's dC/dx_m.",
            "d_i = -kd * g[i] * C-dot, with C-dot from part (1), the same for all i.",
            "Check the sign (damping opposes the rate) and that a rigid motion gives no force; the four forces must sum to " ..
            "zero on any motion."}},
  {todo = 3, name = "dd/dv", fn = "damping_jacobian", kind = "check", check = check_jacobian,
   hints = {"Only C-dot depends on v, and linearly.",
            "dC-dot/dv_j = g[j], so dd_i/dv_j = -kd g[i] g[j]: an outer product.",
            "Check which velocities C-dot depends on: every particle's, so no block of the Jacobian off the diagonal is zero."}},
}}
