-- The grader of lesson 303's exercise (clothcheck lesson 303 --check [DIR] [--hint K]): d cos
-- theta against finite differences of cos theta (28), with the audit's diagnosis (the
-- frozen-magnitude cos lets it recognise Macri's constant-magnitude derivative); then the
-- gradient of Macri's arccos on a sweep of folds.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local vec, sub, dot, cross = grade.vec, grade.sub, grade.dot, grade.cross

-- nA . nB / (|nA| |nB|) with the lengths taken at xf
local function cos_frozen(x, xf)
  local function normals(y)
    local x0, x1, x2, x3 = vec(y, 0), vec(y, 1), vec(y, 2), vec(y, 3)
    return cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3))
  end
  local nA, nB = normals(x)
  local fA, fB = normals(xf)
  return dot(nA, nB) / math.sqrt(dot(fA, fA) * dot(fB, fB))
end

-- |theta| = arccos is not differentiable on a flat hinge: graded on folds of -170 to 170
-- degrees (not 0) of a hinge with unequal triangles, against sign(theta) d theta of the
-- appendix (pritchard-exact)
local exact = cc.condition("bend", "pritchard-exact")
local function folded(phi)
  return {-0.9, 0.15, 0.05,  0.05, -0.55, 0.02,  -0.02, 0.7, -0.04,  -0.8 * math.cos(phi), 0.3, 0.8 * math.sin(phi)}
end

local function check_arccos(f, _, part)
  local pos, neg, npos, nneg = 0, 0, 0, 0
  local got_all, want_all = {}, {}
  for deg = -170, 170, 20 do
    local x = folded(math.rad(deg))
    local got = f({table.unpack(x)})
    if got == nil then return false, {grade.todo_message(part)} end
    local r = exact:eval(x, {})
    local th, want = r.value[1], r.gradient[1]
    local sgn = th < 0 and -1 or 1
    local e_same, e_flip, sc = 0, 0, 0
    for i = 1, 12 do
      got_all[#got_all + 1], want_all[#want_all + 1] = got[i], sgn * want[i]
      e_same = math.max(e_same, math.abs(got[i] - sgn * want[i]))
      e_flip = math.max(e_flip, math.abs(got[i] + sgn * want[i]))
      sc = math.max(sc, math.abs(want[i]))
    end
    if e_same > 1e-9 * sc then
      if th < 0 then nneg = nneg + 1 else npos = npos + 1 end
      if e_flip <= 1e-9 * sc then
        if th < 0 then neg = neg + 1 else pos = pos + 1 end
      end
    end
  end
  if npos + nneg == 0 then return true end
  local moved = grade.layout(got_all, want_all, "grad_arccos", {nv = 4})
  if moved then return false, {moved} end
  if neg > 0 and nneg == neg and npos == 0 then
    return false, {string.format("sign: right on every fold with theta > 0, the negative of the right gradient on the %d with theta < 0: " ..
                                 "the value is |theta|, whose sine is |sin theta|", neg)}
  end
  return false, {string.format("wrong on %d of 18 folds (%d with theta > 0, %d with theta < 0)",
                               npos + nneg, npos, nneg)}
end

-- the derivation the two parts make, as steps for the stepper: d cos theta from the normals,
-- then d arccos(cos theta) from it, at a hinge folded the negative way (-60 degrees)
local function steps(work)
  return {
    {name = "cos theta", equations = "001 (28)", value = function(x) return cos_frozen(x, x) end,
     derivative = function(x) return work.grad_cos(x) end},
    {name = "arccos(cos theta)", equations = "001 5.1",
     value = function(x) return math.acos(math.max(-1, math.min(1, cos_frozen(x, x)))) end,
     derivative = function(x) return work.grad_arccos(x) end},
  }, folded(math.rad(-60))
end

return grade.run{lesson = "303_macri_error", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "d cos theta/dx, (28)", fn = "grad_cos", nv = 4,
   value = function(x) return cos_frozen(x, x) end,
   value_frozen = function(x, xf) return cos_frozen(x, xf) end, steps = steps,
   hints = {"cos theta = nA . nB / (|nA| |nB|): both unit normals move, and each can only turn.",
            "d nA^ = (I - nA^ nA^T) d nA / |nA|, so d(nA^ . nB^) = [(I - nA^ nA^T) nB^] . d nA / |nA| + the same with A and B exchanged.",
            "Check each normal's part: the vector you dot d nA with must have no part along nA^ (the projector) and be " ..
            "divided by |nA|; M.grad_dot_nA and M.grad_dot_nB take that vector."}},
  {todo = 2, name = "d arccos(nA^.nB^)/dx", fn = "grad_arccos", kind = "check", check = check_arccos, steps = steps,
   hints = {"d arccos(c) = -dc / sqrt(1 - c^2).",
            "sqrt(1 - c^2) = |sin theta|, never negative: Macri's -dc / sin theta has the wrong sign whenever theta < 0.",
            "Check the sign on a hinge folded the negative way: sqrt(1 - c^2) is never negative, whatever theta's sign. " ..
            "And the chain rule runs through your grad_cos of part (1)."}},
}}
