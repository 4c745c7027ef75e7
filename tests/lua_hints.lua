-- Every part of every lesson's exercise: hints from general to specific, at least two, and the
-- last one a nudge (what to check), not the code of the answer. Reads each check.lua's parts
-- by loading it with grade.run replaced by a function that keeps the spec.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/../lessons"
package.path = root .. "/?.lua;" .. package.path
local grade = require "grade"
local run = grade.run

local readme = assert(io.open(root .. "/README.md")):read("a")
local code = {"return ", " * ", "] = ", "= {"}
local lessons, parts, seen = 0, 0, {}
for folder in readme:gmatch("%]%((%d%d%d_[%w_]+)/%)") do
  local chunk = not seen[folder] and loadfile(root .. "/" .. folder .. "/check.lua", "t")
  seen[folder] = true
  if chunk then
    local spec
    grade.run = function(s) spec = s return true end
    arg = {[0] = root .. "/" .. folder .. "/check.lua"}
    chunk()
    grade.run = run
    assert(spec and #spec.parts >= 1, folder .. ": check.lua gives no parts")
    for _, part in ipairs(spec.parts) do
      local where = string.format("%s part (%d)", folder, part.todo)
      assert(type(part.hints) == "table" and #part.hints >= 2, where .. ": at least two hints")
      local last = part.hints[#part.hints]
      for _, c in ipairs(code) do
        assert(not last:find(c, 1, true), where .. ": the last hint reads like code ('" .. c .. "'): " .. last)
      end
      parts = parts + 1
    end
    lessons = lessons + 1
  end
end
assert(lessons >= 19, "lessons with an exercise found in lessons/README.md: " .. lessons)
print(string.format("last hints: %d parts of %d lessons say what to check", parts, lessons))
