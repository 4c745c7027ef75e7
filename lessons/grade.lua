-- Grading of exercises: a lesson's check.lua lists the parts of its exercise and calls
-- grade.run. Each part names the function the student fills in, the condition it belongs to,
-- and hints from general to specific. A part passes when the audit engine finds the student's
-- derivative equal to finite differences of the condition's value; when it fails, the audit's
-- diagnosis says what kind of mistake it is (docs/derive.md).
--
--   local grade = require "grade"
--   return grade.run{lesson = "102", dir = arg[1], hint = arg[2], parts = {
--     {todo = 1, name = "dC_u/dx, (14)", fn = "grad_u", nv = 3,
--      value = function(x, rest) ... end,          -- the condition's value, from the toolkit
--      hints = {"...", "..."}}, ...}}
-- grade.run returns true when every part passes, false otherwise (clothcheck exits 1).
local cc = require "clothcheck"

local M = {}

-- the student's work: the table exercise.lua returns
local function load_work(dir)
  local chunk, err = loadfile(dir .. "/exercise.lua", "t")
  if not chunk then return nil, err end
  local ok, work = pcall(chunk)
  if not ok then return nil, work end
  if type(work) ~= "table" then return nil, dir .. "/exercise.lua must end with 'return M'" end
  return work
end

-- zero Hessian of n dofs: only the gradient is graded
local function zeros(n)
  local H = {}
  for i = 1, n * n do H[i] = 0 end
  return H
end

-- grade one part: true, or false and the lines of feedback
local function grade_part(part, work)
  local f = work[part.fn]
  if type(f) ~= "function" then return false, {part.fn .. " is missing from the exercise"} end
  local n = 3 * part.nv
  local cond = cc.define{condition = "exercise", variant = part.fn, nv = part.nv,
                         value = part.value, gradient = f, hessian = function() return zeros(n) end}
  local aok, a = pcall(cc.audit, cond, {samples = 40, edges = false, reference = "fd-true", seed = 5})
  if not aok then
    local msg = tostring(a)
    if msg:find("must return") then msg = part.fn .. " returns no numbers yet: fill in TODO (" .. part.todo .. ")" end
    return false, {msg}
  end
  for _, row in ipairs(a:rows()) do
    if row.quantity == "gradient" then
      if row.pass then return true end
      local lines = {string.format("differs from finite differences of C by %.2g (relative)", row.max_rel_error)}
      for _, finding in ipairs(row.diagnosis) do lines[#lines + 1] = finding.kind .. ": " .. finding.text end
      return false, lines
    end
  end
  return false, {"no gradient row in the audit"}
end

function M.run(spec)
  local dir, hint = spec.dir or ("exercises/" .. spec.lesson), tonumber(spec.hint)
  local work, err = load_work(dir)
  if not work then error(err, 0) end
  print(string.format("Lesson %s exercise, %s/exercise.lua:", spec.lesson, dir))
  local failed, first
  for _, part in ipairs(spec.parts) do
    local ok, lines = grade_part(part, work)
    print(string.format("  (%d) %-28s %s", part.todo, part.name, ok and "passed" or "FAILED"))
    for _, l in ipairs(lines or {}) do print("        " .. l) end
    if not ok then
      failed = (failed or 0) + 1
      first = first or part
      if not hint then print("        hint: " .. part.hints[1]) end
    end
  end
  if hint and first then
    local h = first.hints[math.min(hint, #first.hints)]
    print(string.format("\nHint %d of %d for part (%d): %s", math.min(hint, #first.hints), #first.hints, first.todo, h))
  end
  print(failed and string.format("\n%d of %d parts to do.", failed, #spec.parts) or "\nEvery part passes.")
  return not failed
end

return M
