-- The grader of lesson 302's exercise (clothcheck lesson 302 --check [DIR] [--hint K]).
-- (1) the frozen-magnitude theta: equal to theta at its own magnitudes, and its central
-- differences equal to (54) -- not to the true gradient, which is what they give when |e| is
-- not frozen. (2) the exact gradient, audited against finite differences of the true theta,
-- with the audit's diagnosis.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local pritchard, exact = cc.condition("bend", "pritchard"), cc.condition("bend", "pritchard-exact")

-- hinges folded between about -150 and 150 degrees, triangles of different sizes
local hinges = {
  {-0.9, 0.15, 0.05,  0.05, -0.55, 0.02,  -0.02, 0.7, -0.04,  0.6, 0.3, 0.75},
  {-1.1, -0.2, 0.3,  0.1, -0.6, -0.1,  0.0, 0.8, 0.1,  0.9, 0.1, -0.5},
  {-0.7, 0.3, -0.6,  0.0, -0.4, 0.0,  0.05, 0.5, 0.02,  -0.5, 0.2, -0.4},
}

local function rel(a, b)
  local worst, sc = 0, 0
  for i = 1, #b do worst, sc = math.max(worst, math.abs(a[i] - b[i])), math.max(sc, math.abs(b[i])) end
  return worst / sc
end

local function check_frozen(f, _, part)
  local h, off_54, off_exact, off_value = 1e-6, 0, 0, 0
  for _, x in ipairs(hinges) do
    local v = f({table.unpack(x)}, {table.unpack(x)})
    if v == nil then return false, {grade.todo_message(part)} end
    off_value = math.max(off_value, math.abs(v - pritchard:eval(x, {want = "value"}).value[1]))
    local fd = {}
    for i = 1, 12 do
      local xp, xm = {table.unpack(x)}, {table.unpack(x)}
      xp[i], xm[i] = xp[i] + h, xm[i] - h
      fd[i] = (f(xp, {table.unpack(x)}) - f(xm, {table.unpack(x)})) / (2 * h)
    end
    off_54 = math.max(off_54, rel(fd, pritchard:eval(x, {}).gradient[1]))
    off_exact = math.max(off_exact, rel(fd, exact:eval(x, {}).gradient[1]))
  end
  if off_value > 1e-12 then
    return false, {string.format("value: frozen_theta(x, x) must be theta(x) of (30); it is off by %.3g", off_value)}
  end
  if off_54 < 1e-7 then return true end
  if off_exact < 1e-7 then
    return false, {string.format("unfrozen: its differences are the true gradient (%.1e from the appendix's, %.2g from (54)): " ..
                                 "|e| moves with y. Freezing |nA| and |nB| alone changes nothing -- they scale sin and cos alike", off_exact, off_54)}
  end
  return false, {string.format("its central differences differ from (54) by %.2g (relative)", off_54)}
end

-- theta - theta0 of (30), the value the exact gradient is audited against, and the same with
-- the lengths of nA, nB, e frozen at xf (so that the diagnosis can name a frozen gradient)
local function theta(x, rest) return exact:eval(x, {want = "value"}).value[1] - rest.rest_angle end
local function theta_frozen(x, xf, rest)
  local function vectors(y)
    local v = function(m) return {y[3 * m + 1], y[3 * m + 2], y[3 * m + 3]} end
    local x0, x1, x2, x3 = v(0), v(1), v(2), v(3)
    return grade.cross(grade.sub(x2, x0), grade.sub(x1, x0)), grade.cross(grade.sub(x1, x3), grade.sub(x2, x3)),
           grade.sub(x1, x2)
  end
  local nA, nB, e = vectors(x)
  local fA, fB, fe = vectors(xf)
  local a, b, c = math.sqrt(grade.dot(fA, fA)), math.sqrt(grade.dot(fB, fB)), math.sqrt(grade.dot(fe, fe))
  local cos = grade.dot(nA, nB) / (a * b)
  local sin = grade.dot(grade.cross(nA, nB), e) / (a * b * c)
  return math.atan(sin, cos) - rest.rest_angle
end

-- the derivation as steps for the stepper, on the first hinge (56 degrees), one per part (a
-- part is graded with the worked answer of the other): (54) is the derivative of your frozen
-- theta (Section 4); your exact gradient, (54) minus the dropped cos theta sin theta d ln|e|,
-- that of theta (30)
local function steps_frozen(work)
  local x0 = hinges[1]
  return {{name = "frozen theta", equations = "001 Section 4, (40)-(54)",
           value = function(y) return work.frozen_theta({table.unpack(y)}, {table.unpack(x0)}) end,
           derivative = function(y) return pritchard:eval(y, {}).gradient[1] end}}, {table.unpack(x0)}
end
local function steps_theta(work)
  return {{name = "theta", equations = "001 (30); (54) - cos theta sin theta d ln|e|",
           value = function(y) return exact:eval(y, {want = "value"}).value[1] end,
           derivative = function(y) return work.exact_gradient({table.unpack(y)}) end}}, {table.unpack(hinges[1])}
end

return grade.run{lesson = "302_constant_magnitude", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "frozen theta, 001 Section 4", fn = "frozen_theta", kind = "check", check = check_frozen, steps = steps_frozen,
   hints = {"Normalise each vector of y by a length that does not move with y: its length at xf.",
            "nA/|fA|, nB/|fB|, e/|fe|, with fA, fB, fe the vectors at xf; then cos = nA.nB, sin = (nA x nB).e.",
            "Check two things: every length you divide by must be computed from xf alone (none from y), and at y = xf " ..
            "your angle must be (30)'s theta."}},
  {todo = 2, name = "exact d theta/dx", fn = "exact_gradient", nv = 4,
   value = theta, value_frozen = theta_frozen, steps = steps_theta,
   hints = {"Freezing a length keeps n^ d ln|n| in d n^; the nA and nB parts cancel in cos d(sin) - sin d(cos). Which vector is only in sin?",
            "(54) - d theta = cos theta sin theta d ln|e|, and d ln|e| = e^ . de / |e| with e = x1 - x2.",
            "Check the correction: it comes from e alone, so only the x1 and x2 entries of (54) change, by equal and " ..
            "opposite amounts. Which way -- is (54) the larger or the smaller?"}},
}}
