-- The grader of lesson 404's exercise (clothcheck lesson 404 --check [DIR] [--hint K]): (1) the
-- angle and (2) the energy made conditions by the exercise's own M.define (derivatives by jets,
-- so they agree with their values) and audited against what they claim, bend/bridson (as an
-- energy with k = 5), with the claim's diagnosis: "sign", "relabelled", "scale", ...; (3) the
-- student's diagnose on four planted conditions, each consistent with itself: right, the angle
-- the other way round, the hinge relabelled, a factor 2. Mistake of (3) named: "self-only".
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local bridson = cc.condition("bend", "bridson")
local K = 5
local HINGE = {-1, 0.1, 0.2,  0.1, -0.6, 0,  0, 0.7, 0.1,  0.8, 0.2, 0.6}

-- the message for an error raised by the student's code
local function failure(msg, part)
  msg = tostring(msg)
  if msg:find("number expected, got table") or msg:find("arithmetic on a table") then
    msg = msg .. " -- your code met a jet: use M.sqrt and M.atan2 (math.sqrt, math.atan take numbers only)"
  elseif msg:find("must return") then
    msg = grade.todo_message(part)
  end
  return false, {msg}
end

-- cond audited against itself (gradient only) and against its claim: pass, lines
local function audit_claim(cond, part, what, opts)
  local ok, self = pcall(cc.audit, cond, {samples = 8, edges = false, sweeps = 0, reference = "fd-true",
                                          quantities = {"gradient"}})
  if not ok then return failure(self, part) end
  local o = {samples = 20, sweeps = 0, reference = "claim", claims = bridson}
  for k, v in pairs(opts or {}) do o[k] = v end
  local ok2, a = pcall(cc.audit, cond, o)
  if not ok2 then return failure(a, part) end
  if not a:failed() then return true end
  local lines, g = {}, self:rows()[1]
  lines[1] = string.format("against itself: its gradient and differences of its value agree to %.1e (%s: the "
                           .. "derivatives are your code's own)", g.max_rel_error, g.pass and "passes" or "fails")
  local err = {}
  for _, r in ipairs(a:rows()) do err[r.quantity] = r.max_rel_error end
  lines[2] = string.format("against its claim %s: %s differs by up to %.3g, its gradient by %.3g", what,
                           opts and "the energy" or "the value", err.value or 0, err.gradient or 0)
  for _, r in ipairs(a:rows()) do
    if r.quantity == "gradient" and #r.diagnosis > 0 then
      lines[3] = r.diagnosis[1].kind .. ": " .. r.diagnosis[1].text
    end
  end
  return false, lines
end

local function check_theta(f, work, part)
  local ok, v = pcall(f, {table.unpack(HINGE)})
  if not ok then return failure(v, part) end
  if v == nil then return false, {grade.todo_message(part)} end
  if type(v) ~= "number" then return false, {"theta must return a number, the angle"} end
  return audit_claim(work.define(function(x, rest) return f(x) - rest.rest_angle end, "theta"), part, "bend/bridson")
end

-- the worked angle, written with the exercise's M.sqrt and M.atan2 so that its jets go through
local function worked_theta(work)
  local vec, sub, dot, cross = grade.vec, grade.sub, grade.dot, grade.cross
  return function(x)
    local x0, x1, x2, x3 = vec(x, 0), vec(x, 1), vec(x, 2), vec(x, 3)
    local nA, nB, e = cross(sub(x2, x0), sub(x1, x0)), cross(sub(x1, x3), sub(x2, x3)), sub(x1, x2)
    local lA, lB, le = work.sqrt(dot(nA, nA)), work.sqrt(dot(nB, nB)), work.sqrt(dot(e, e))
    return work.atan2(dot(cross(nA, nB), e) / (lA * lB * le), dot(nA, nB) / (lA * lB))
  end
end

-- The audit's hinges rest flat (theta0 = 0): theta0 is checked here, at one hinge with theta0 = 0.2.
local function check_energy(f, work, part)
  local theta = worked_theta(work)
  local ok, v = pcall(f, theta, {table.unpack(HINGE)}, {rest_angle = 0.2}, K)
  if not ok then return failure(v, part) end
  if v == nil then return false, {grade.todo_message(part)} end
  if type(v) ~= "number" then return false, {"energy must return a number"} end
  local t = theta(HINGE)
  local want, off = K / 2 * (t - 0.2) ^ 2, nil
  if math.abs(v - want) > 1e-12 * math.max(1, want) then
    if math.abs(v - K / 2 * t * t) <= 1e-12 * math.max(1, want) then
      return false, {"rest-angle: your energy is k/2 theta^2, at rest only where theta = 0: C = theta - theta0 " ..
                     "(rest.rest_angle) is zero at the rest angle"}
    end
    off = string.format("at a hinge with theta = %.4f, theta0 = 0.2, k = 5 your energy is %.6g, k/2 (theta - "
                        .. "theta0)^2 is %.6g", t, v, want)
  end
  local cond = work.define(function(x, rest) return f(theta, x, rest, K) end, "energy")
  local pass, lines = audit_claim(cond, part, "bend/bridson as the energy k/2 C^2, k = 5", {as_energy = true, k = K})
  if off then
    lines = lines or {}
    table.insert(lines, 1, off)
  end
  return pass and not off, lines
end

-- a condition consistent with itself that claims bend/bridson: right (kind nil), the angle the
-- other way round ("sign"), the hinge read with the shared edge x0-x1 ("relabelled"), twice
-- the condition ("scale")
local function planted(kind)
  local perm = kind == "relabelled" and {2, 0, 1, 3} or {0, 1, 2, 3}   -- its x_m is our x_perm[m]
  local c = kind == "sign" and -1 or kind == "scale" and 2 or 1
  local function at(x, rest, want)
    local y = {}
    for m = 0, 3 do for s = 1, 3 do y[3 * m + s] = x[3 * perm[m + 1] + s] end end
    return bridson:eval(y, {rest = rest.rest_angle, want = want})
  end
  return cc.define{condition = "bend", variant = kind or "right", nv = 4, claim = "exact",
    value = function(x, rest)
      local C = at(x, rest, "value").value[1]
      return kind == "sign" and -(C + rest.rest_angle) - rest.rest_angle or c * C   -- -theta - theta0
    end,
    gradient = function(x, rest)
      local g, out = at(x, rest, "gradient").gradient[1], {}
      for m = 0, 3 do for s = 1, 3 do out[3 * perm[m + 1] + s] = c * g[3 * m + s] end end
      return out
    end,
    hessian = function(x, rest)
      local H, out = at(x, rest, "hessian").hessian[1], {}
      for m = 0, 3 do for s = 1, 3 do for n = 0, 3 do for t = 1, 3 do
        out[12 * (3 * perm[m + 1] + s - 1) + 3 * perm[n + 1] + t] = c * H[3 * m + s][3 * n + t]
      end end end end
      return out
    end}
end

local function check_diagnose(f, _, part)
  local cases = {{nil, "the right condition"}, {"sign", "the angle measured the other way round"},
                 {"relabelled", "the hinge read with the shared edge x0-x1"}, {"scale", "twice the condition"}}
  local lines, found, all_ok, named = {}, {}, true, 0
  for i, c in ipairs(cases) do
    local ok, self_ok, kind = pcall(f, planted(c[1]))
    if not ok then return failure(self_ok, part) end
    if i == 1 and self_ok == nil and kind == nil then return false, {grade.todo_message(part)} end
    found[i] = string.format("%s: %s, %s", c[2], tostring(self_ok), tostring(kind))
    if self_ok ~= true or kind ~= c[1] then all_ok = false end
    if self_ok ~= true then lines[#lines + 1] = "self_ok for " .. c[2] .. " is " .. tostring(self_ok) ..
                                               ": it is consistent with itself, so its own audit passes" end
    if kind ~= nil then named = named + 1 end
  end
  if all_ok then return true end
  if named == 0 then
    table.insert(lines, 1, "self-only: diagnose finds nothing wrong with a condition whose sign, labels or factor " ..
                 "is wrong: an audit of a condition against itself passes whenever its derivatives are those of its " ..
                 "own value; only its claim can tell")
  end
  lines[#lines + 1] = "diagnose returned (self_ok, kind) = " .. table.concat(found, "; ")
  lines[#lines + 1] = "expected true, nil; true, sign; true, relabelled; true, scale"
  return false, lines
end

return grade.run{lesson = "404_your_own_code", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "theta, 001 (30)", fn = "theta", kind = "check", check = check_theta,
   hints = {"Build nA, nB and e from the vertices as the comment says; theta is the angle whose cosine is "
            .. "nA^.nB^ and whose sine is (nA^ x nB^).e^.",
            "|v| = M.sqrt(dot(v, v)); cos = dot(nA, nB) / (|nA| |nB|), sin = dot(cross(nA, nB), e) / (|nA| |nB| |e|); "
            .. "then M.atan2(sin, cos).",
            "The claim's diagnosis names the mistake: for 'sign', which way round does (30) take the cross product "
            .. "and the edge? For 'relabelled', which two vertices did you take as the shared edge?"}},
  {todo = 2, name = "the energy k/2 C^2", fn = "energy", kind = "check", check = check_energy,
   hints = {"An energy of a condition C with stiffness k is k/2 C^2 (001 Section 3: E = k/2 C^2 for a scalar condition).",
            "C = theta(x) - rest.rest_angle, with theta the function passed in (not M.theta).",
            "A 'scale' finding gives the factor your energy is off by: which factor of k/2 does it name?"}},
  {todo = 3, name = "diagnose against the claim", fn = "diagnose", kind = "check", check = check_diagnose,
   hints = {"cc.audit(cond, opts) checks cond against itself; the option claims = cc.condition(\"bend\", \"bridson\") "
            .. "adds rows (reference \"claim\") that compare it with what it claims.",
            "Two audits; a:failed() says whether one fails; a:diagnosis() lists findings {kind =, reference =, ...}.",
            "If the planted mistakes all pass your diagnose, ask what your audit compares them with."}},
}}
