-- Grading of exercises: a lesson's check.lua lists the parts of its exercise and calls
-- grade.run. Each part names the function the student fills in, what it is graded against,
-- and hints from general to specific, the last one saying what to check (an equation, a term, a
-- test), not the code of the answer. Three kinds of part:
--
--   kind = "gradient" (the default): fn(x, rest) is dC/dx of the condition whose value the
--     part gives; it passes when the audit engine finds it equal to finite differences of
--     that value, and when it fails the audit's diagnosis says what kind of mistake it is
--     (docs/derive.md).
--     A part that also gives value_frozen(x, xf, rest) (C with the magnitudes of xf, 001
--     Section 4) lets the diagnosis recognise a frozen-magnitude derivative.
--   kind = "hessian": fn(x, rest) is d2C/dxdx (row-major, 3nv x 3nv); the part gives the
--     value and the right gradient, and the student's Hessian is audited against finite
--     differences of that gradient, with the diagnosis.
--   kind = "check": fn is anything; the part's check(fn, work, part) returns true, or false
--     and a list of lines saying what is wrong (a step of an integrator, a filter of MPCG,
--     ...); when fn gives nothing yet it returns false, {grade.todo_message(part)}.
--     grade.compare and grade.classify compare numbers and name the typical mistakes (given
--     the numbers' shape, a vector or matrix over vertices, also their layout: grade.layout);
--     grade.invariance checks numbers that are a function of positions under a motion they
--     must not see (a translation: a vertex where a difference belongs); grade.audited grades
--     a check part by the audit, as a gradient or Hessian part, and adds what the audit alone
--     cannot name (the right gradient of the other component: grade.same_function).
-- Any part may give steps(work): the steps of the derivation its answer is built in, from the
-- student's functions, for the stepper to name the first that departs when the part fails
-- (first_departure below).
--
--   local grade = require "grade"
--   return grade.run{lesson = "102", dir = arg[1], hint = arg[2], parts = {
--     {todo = 1, name = "dC_u/dx, (14)", fn = "grad_u", nv = 3,
--      value = function(x, rest) ... end,          -- the condition's value, from the toolkit
--      hints = {"...", "..."}}, ...}}
-- grade.run returns true when every part passes, false otherwise (clothcheck exits 1).
--
-- A part is graded with the worked answers (the lesson's solution.lua) of the earlier parts it
-- calls through the exercise's table (M.system calling M.force_jacobian), so one mistake fails
-- one part; where a part calls a failing one, it is graded again with the student's own parts
-- and the feedback says whether the whole chain works, and because of which part.
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

-- 3-vectors for the graders: vertex m of a flat position list, difference, dot and cross
function M.vec(x, m) return {x[3 * m + 1], x[3 * m + 2], x[3 * m + 3]} end
function M.sub(a, b) return {a[1] - b[1], a[2] - b[2], a[3] - b[3]} end
function M.dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
function M.cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end

local function todo_message(part)
  return part.fn .. " returns no numbers yet: fill in TODO (" .. part.todo .. ")"
end
M.todo_message = todo_message

-- the audit row of `quantity` for the student's function wrapped as a condition: pass, lines
local function audit_part(part, f, quantity)
  local n = 3 * part.nv
  local def = {condition = "exercise", variant = part.fn, nv = part.nv, value = part.value,
               value_frozen = part.value_frozen}
  if quantity == "gradient" then
    def.gradient, def.hessian = f, function() return zeros(n) end
  else
    def.gradient, def.hessian = part.gradient, f
  end
  -- only the row graded, without step sweeps: the verdict and its diagnosis need nothing else
  local aok, a = pcall(cc.audit, cc.define(def), {samples = 40, edges = false, reference = "fd-true", seed = 5,
                                                  sweeps = 0, quantities = {quantity}})
  if not aok then
    local msg = tostring(a)
    local want, got = msg:match("must return (%d+) numbers %(got (.-)%)")
    if got == "nil" then msg = todo_message(part)
    elseif got then
      msg = string.format("shape: %s returns %s; it must return %s numbers, the %s's entries in the order of x", part.fn, got,
                          want, quantity == "gradient" and "gradient" or "Hessian")
    end
    local what, k = msg:match("returned (%S+) as number (%d+)")
    if what then
      msg = string.format("non-finite: %s returns %s as entry %s (a square root or a division meeting 0?)", part.fn,
                          what == "nan" and "NaN" or "an infinity", k)
    end
    return false, {msg}
  end
  for _, row in ipairs(a:rows()) do   -- numbers that are not finite first: the other rows leave those elements out
    if row.quantity == "finite" and not row.pass then
      local d = row.diagnosis[1]
      return false, {"non-finite: " .. part.fn .. ": " .. (d and d.text or "returns numbers that are not finite")}
    end
  end
  for _, row in ipairs(a:rows()) do
    if row.quantity == quantity then
      if row.pass then return true end
      local of = quantity == "gradient" and "C" or "the gradient"
      local lines = {string.format("differs from finite differences of %s by %.2g (relative)", of, row.max_rel_error)}
      for _, finding in ipairs(row.diagnosis) do lines[#lines + 1] = finding.kind .. ": " .. finding.text end
      return false, lines
    end
  end
  return false, {"no " .. quantity .. " row in the audit"}
end

-- The layouts a list of numbers can be read in, as maps from the slot an entry belongs in to
-- the slot it was written to (1-based): items of size 3 nv (a vector per vertex) or (3 nv)^2 (a
-- matrix over them, row-major) one after the other, `want` being the right layout.
local function axis_major(nv)   -- vertex-major slot 3m + s to axis-major s nv + m
  return function(i) local m, s = (i - 1) // 3, (i - 1) % 3; return s * nv + m + 1 end
end
local function relabel(p)       -- vertex m's entries written where vertex p[m] belongs
  return function(i) local m, s = (i - 1) // 3, (i - 1) % 3; return 3 * p[m + 1] + s + 1 end
end
local function vertex_orders(nv)   -- every order of 0..nv-1 but the identity, for nv <= 4
  local out = {}
  local function permute(prefix, left)
    if #left == 0 then
      for i = 1, #prefix do if prefix[i] ~= i - 1 then out[#out + 1] = prefix; return end end
      return
    end
    for i = 1, #left do
      local p, l = {table.unpack(prefix)}, {table.unpack(left)}
      p[#p + 1] = table.remove(l, i)
      permute(p, l)
    end
  end
  local all = {}
  for m = 0, nv - 1 do all[#all + 1] = m end
  if nv <= 4 then permute({}, all) end
  return out
end

-- The layout mistake that turns want into got, as a line "KIND: WHAT: ...", or nil: the entries
-- axis-major (x of every vertex, then y, then z), the vertices in another order, a matrix
-- transposed or its 3x3 blocks transposed in place. shape = {nv = vertices, matrix = true for
-- a (3 nv) x (3 nv) matrix, of = what the 3-vectors are ("vertex" by default), names = the
-- first two 3-vectors' names ("x0", "x1" by default)}; the numbers are items of that shape one
-- after the other. For check parts (M.compare calls it).
function M.layout(got, want, what, shape, tol)
  tol = tol or 1e-9
  local nv, of = shape.nv, shape.of or "vertex"
  local n = 3 * nv
  local size = shape.matrix and n * n or n
  if #want == 0 or #want % size ~= 0 or #got ~= #want then return nil end
  local scale = 1e-300
  for i = 1, #want do scale = math.max(scale, math.abs(want[i])) end
  -- true when got holds want's entries moved by map (slot -> slot within one item; a matrix's
  -- rows and columns both moved by it, or transposed)
  local function holds(map, transposed)
    for base = 0, #want - size, size do
      for i = 1, shape.matrix and n or size do
        for j = 1, shape.matrix and n or 1 do
          local from, to
          if shape.matrix then
            local a, b = map(i), map(j)
            if transposed then a, b = b, a end
            from, to = (i - 1) * n + j, (a - 1) * n + b
          else
            from, to = i, map(i)
          end
          local g = got[base + to]
          if type(g) ~= "number" or not (math.abs(g - want[base + from]) <= tol * scale) then return false end
        end
      end
    end
    return true
  end
  local same = function(i) return i end
  local prefix = what ~= "" and what .. ": " or ""
  if nv >= 2 and holds(axis_major(nv)) then
    local a, b = shape.names and shape.names[1] or "x0", shape.names and shape.names[2] or "x1"
    return string.format("relabelled: %sthe right numbers laid out axis-major (the x of every %s, then the y's, then " ..
                         "the z's); they go %s by %s: %s.x, %s.y, %s.z, %s.x, ...", prefix, of, of, of, a, a, a, b)
  end
  if shape.matrix and holds(same, true) then
    return "transposed: " .. prefix .. "the right matrix transposed: entry (i, j) must be the derivative of " ..
           "component i with respect to coordinate j"
  end
  if shape.matrix and nv >= 2 then   -- row and column exchanged within each 3x3 block
    local ok = true
    for base = 0, #want - size, size do
      for i = 0, n - 1 do
        for j = 0, n - 1 do
          local g = got[base + (i - i % 3 + j % 3) * n + (j - j % 3 + i % 3) + 1]
          ok = ok and type(g) == "number" and math.abs(g - want[base + i * n + j + 1]) <= tol * scale
        end
      end
    end
    if ok then
      return "transposed: " .. prefix .. "each 3x3 block transposed in place: in block (m, n) the row must be " ..
             "the axis s of vertex m, the column the axis t of vertex n"
    end
  end
  local plural = of == "vertex" and "vertices" or of .. "s"
  for _, p in ipairs(vertex_orders(nv)) do
    if holds(relabel(p)) then   -- your vertex p[m] holds our vertex m
      local yours, ours = {}, {}
      for m = 0, nv - 1 do yours[#yours + 1], ours[#ours + 1] = "x" .. p[m + 1], "x" .. m end
      return string.format("relabelled: %sthe right numbers for the %s in another order: your %s are our %s",
                           prefix, plural, table.concat(yours, ", "), table.concat(ours, ", "))
    end
  end
  return nil
end

-- true when lines (from M.compare) name a layout: the right numbers in other slots
function M.is_layout(lines)
  return lines ~= nil and lines[1] ~= nil and (lines[1]:find("^relabelled: ") or lines[1]:find("^transposed: ")) ~= nil
end

-- Compare the numbers a student's function gave (a list, or nil while the TODO is open) with
-- the right ones: true, or false and lines naming the kind of difference -- "sign" (the
-- negative), "scale" (a constant multiple), "swapped" (the two halves exchanged), with a shape
-- (M.layout) "relabelled" or "transposed" (the right numbers in other slots) -- or by how
-- much it differs. For check parts.
function M.compare(got, want, what, part, tol, shape)
  tol = tol or 1e-9
  if got == nil then return false, {todo_message(part)} end
  if type(got) ~= "table" then
    return false, {string.format("%s must be a list of %d numbers; it is a %s", what, #want, type(got))}
  end
  if #got ~= #want then
    return false, {string.format("%s must be a list of %d numbers; it has %d entries", what, #want, #got)}
  end
  for i = 1, #want do
    if type(got[i]) ~= "number" then
      return false, {string.format("%s must be a list of %d numbers; entry %d is a %s", what, #want, i, type(got[i]))}
    end
    if got[i] ~= got[i] or got[i] == math.huge or got[i] == -math.huge then
      return false, {string.format("non-finite: %s entry %d is %s (a square root or division meeting 0?)", what, i,
                                   got[i] ~= got[i] and "NaN" or "infinite")}
    end
  end
  local function off(f)
    local e, n = 0, 0
    for i = 1, #want do
      local g = got[i]
      if type(g) ~= "number" then return math.huge, 1 end
      e, n = math.max(e, math.abs(g - f(i))), math.max(n, math.abs(want[i]))
    end
    return e, math.max(n, 1e-300)
  end
  local e, n = off(function(i) return want[i] end)
  if e <= tol * n then return true end
  if off(function(i) return -want[i] end) <= tol * n then
    return false, {"sign: " .. what .. ": the negatives of the right values"}
  end
  local gw, ww = 0, 0
  for i = 1, #want do gw, ww = gw + got[i] * want[i], ww + want[i] ^ 2 end
  local c = ww > 0 and gw / ww or 0
  if c ~= 0 and off(function(i) return c * want[i] end) <= tol * n * math.max(1, math.abs(c)) then
    return false, {string.format("scale: %s: %.6g times the right values", what, c)}
  end
  local h = #want // 2
  if #want % 2 == 0 and off(function(i) return want[i <= h and i + h or i - h] end) <= tol * n then
    return false, {"swapped: " .. what .. ": its two halves the other way round"}
  end
  local moved = shape and M.layout(got, want, what, shape, tol)
  if moved then return false, {moved} end
  return false, {string.format("%s: off the right values by up to %.3g (right entries up to %.3g)",
                               what, e, n)}
end

-- Compare with the right values (M.compare, with shape if given); when they differ, name the
-- first of the typical mistakes the numbers match instead: alternatives = {{values, "kind:
-- message" [, tol]}, ...} (tol defaults to the comparison's). Otherwise M.compare's lines, and
-- note after them if given. For check parts.
function M.classify(got, want, what, part, tol, alternatives, note, shape)
  local ok, lines = M.compare(got, want, what, part, tol, shape)
  if ok then return true end
  for _, alt in ipairs(alternatives) do
    if M.compare(got, alt[1], "", part, alt[3] or tol) then return false, {alt[2]} end
  end
  if note then lines[#lines + 1] = note end
  return false, lines
end

-- a list of flat positions (x, y, z of each vertex) moved by t = {tx, ty, tz}
function M.translate(x, t)
  local y = {}
  for i = 1, #x do y[i] = x[i] + t[(i - 1) % 3 + 1] end
  return y
end

-- The numbers fn(...) returns (a list, or one number), or nil when they are not numbers
local function values_of(fn, args)
  local copy = {}             -- fn gets copies: what it changes in them changes no other call
  for i, a in ipairs(args) do
    if type(a) == "table" then
      copy[i] = {}
      for k, v in pairs(a) do copy[i][k] = v end
    else
      copy[i] = a
    end
  end
  local ok, v = pcall(fn, table.unpack(copy))
  if not ok then return nil end
  if type(v) == "number" then v = {v} end
  if type(v) ~= "table" or #v == 0 then return nil end
  for i = 1, #v do   -- numbers, and finite: a NaN is no function's right value
    if type(v[i]) ~= "number" or v[i] ~= v[i] or v[i] == math.huge or v[i] == -math.huge then return nil end
  end
  return v
end

-- Whether fn gives what it should when its input is moved in a way its values must not see (a
-- translation of the triangle, the lesson's first check) or must follow: fn(args...) against
-- fn(motion.move(args)...), with
--   motion = {kind = "translation", name = "the triangle is moved by t = (0.3, -1.2, 2.5)",
--             move = function(args) return the moved args, a new list end,
--             expect = function(values) return what fn should give then end,  -- default: the same
--             fix = "x1 must enter as x1 - x0"}.
-- true (also when fn gives no list of numbers: the comparison with the right values says what
-- is wrong then), or false and {"KIND: your WHAT changes when NAME (by up to E): FIX"}. For
-- check parts whose numbers are a function of positions (a per-triangle quantity, an angle, a
-- weight); a gradient part's audit checks its own invariances.
function M.invariance(fn, args, what, motion, tol)
  tol = tol or 1e-9
  local before = values_of(fn, args)
  local after = before and values_of(fn, motion.move(args))
  if not after or #after ~= #before then return true end
  local want = motion.expect and motion.expect(before) or before
  local e, n = 0, 0
  for i = 1, #want do e, n = math.max(e, math.abs(after[i] - want[i])), math.max(n, math.abs(want[i])) end
  if e <= tol * math.max(n, 1e-300) then return true end
  return false, {string.format("%s: your %s changes when %s (by up to %.3g, entries up to %.3g): %s",
                               motion.kind, what, motion.name, e, n, motion.fix)}
end

-- true when f and g give the same numbers (relative tol, default 1e-9) at every list of
-- arguments in cases: a student's function recognised as another right one (the gradient of the
-- other component, ...)
function M.same_function(f, g, cases, tol)
  tol = tol or 1e-9
  for _, args in ipairs(cases) do
    local a, b = values_of(f, args), values_of(g, args)
    if not a or not b or #a ~= #b then return false end
    local e, n = 0, 0
    for i = 1, #b do e, n = math.max(e, math.abs(a[i] - b[i])), math.max(n, math.abs(b[i])) end
    if not (e <= tol * math.max(n, 1e-300)) then return false end
  end
  return true
end

-- the toolkit's rest data of a triangle with (u,v) coordinates uv ({{u, v}, x3}) at positions x
-- (9 numbers), as a condition is handed it (alpha, dwu, dwv, ...): read by a condition that
-- records what it is given
function M.triangle_rest(uv, x, area_power)
  local seen
  cc.define{condition = "peek", nv = 3, ncomp = 1,
    value = function(_, rest) seen = rest; return {0} end,
    gradient = function() return {0, 0, 0, 0, 0, 0, 0, 0, 0} end,
    hessian = function() return zeros(9) end}:eval(x, {uv = uv, area_power = area_power})
  return seen
end

-- two triangles as argument lists {x, rest} (area power 0.75), for same_function on a
-- triangle condition's gradient
function M.triangle_cases()
  local x1 = {0.1, -0.2, 0.05,  1.3, 0.1, 0.4,  0.2, 1.1, -0.3}
  local x2 = {0.0, 0.0, 0.0,  0.8, 0.3, -0.2,  0.1, 0.9, 0.3}
  return {{x1, M.triangle_rest({{0, 0}, {1, 0.2}, {0.3, 0.9}}, x1, 0.75)},
          {x2, M.triangle_rest({{0.2, 0.1}, {-0.4, 1.3}, {1.1, 0.5}}, x2, 0.75)}}
end

-- A check part graded as a gradient (quantity "gradient") or Hessian ("hessian-vs-gradient")
-- part is, by the audit with its diagnosis, which when the audit fails adds the lines of
-- also(f, work, part) (nil, or a list): a mistake the audit of this part alone cannot name --
-- the right derivative of another component of the condition, ... -- after the line saying how
-- far off it is, in place of the audit's "unknown". The part gives nv, value (and gradient for
-- a Hessian) as a gradient or Hessian part does.
function M.audited(quantity, also)
  return function(f, work, part)
    if type(f) ~= "function" then return false, {part.fn .. " must be a function"} end
    local ok, lines = audit_part(part, f, quantity)
    if ok then return true end
    local more = also and also(f, work, part)
    if not more then return false, lines end
    local out = {lines[1]}     -- how far off, then the mistake named, for an audit that knew none
    for _, l in ipairs(more) do out[#out + 1] = l end
    for i = 2, #lines do
      if not lines[i]:find("^unknown: ") then out[#out + 1] = lines[i] end
    end
    return false, out
  end
end

-- grade one part on its own: true, or false and the lines of feedback
local function grade_part_alone(part, work)
  local f = work[part.fn]
  local kind = part.kind or "gradient"
  if f == nil and kind == "check" then return false, {part.fn .. " is not set yet: fill in TODO (" .. part.todo .. ")"} end
  if f == nil then return false, {part.fn .. " is missing from the exercise"} end
  if kind == "check" then
    local ok, pass, lines = pcall(part.check, f, work, part)
    if not ok then
      local msg = tostring(pass)
      if msg:find("TODO") or msg:find("nil value") then msg = todo_message(part) .. " (" .. msg .. ")" end
      return false, {msg}
    end
    return pass, lines
  end
  if type(f) ~= "function" then return false, {part.fn .. " must be a function"} end
  return audit_part(part, f, kind == "hessian" and "hessian-vs-gradient" or "gradient")
end

-- The derivation stepper on a failing part that gives `steps`: steps(work) returns the
-- derivation as Lua steps ({name=, equations=, value=f(x, rest), derivative=f(x, rest)},
-- built from the student's functions) and the positions x to step through it at; the line
-- names the first step whose derivative is not the derivative of its value (docs/derive.md).
-- A step of a derivation that is not a derivative (a line of an integrator, a constraint
-- MPCG keeps) is a compare step, {name=, equations=, value=f(), right=f(), tol=, scale=}: its
-- value (the student's numbers) departs when some entry is off right's by more than tol
-- (default 1e-9; a number or one per entry) times scale (default the largest right entry).
local function compare_step(s)
  local okg, got = pcall(s.value)
  local okw, want = pcall(s.right)
  if not okg or not okw then return nil end
  if type(got) == "number" then got = {got} end
  if type(want) == "number" then want = {want} end
  if type(got) ~= "table" or type(want) ~= "table" or #got ~= #want then return nil end
  local scale = s.scale
  if not scale then
    scale = 1e-300
    for i = 1, #want do scale = math.max(scale, math.abs(want[i])) end
  end
  local worst, off = 0, false
  for i = 1, #want do
    if type(got[i]) ~= "number" then return nil end
    local e = math.abs(got[i] - want[i]) / scale
    local tol = type(s.tol) == "table" and s.tol[i] or s.tol or 1e-9
    worst, off = math.max(worst, e), off or not (e <= tol)
  end
  return off, worst
end

local function first_departure(part, work)
  local okb, steps, x = pcall(part.steps, work)
  if not okb or type(steps) ~= "table" then return nil end
  -- the compare steps in order up to the first that departs (or gives nothing yet: the
  -- student's function is not written); the derivative steps before it to the stepper
  local derived, first, worst = {}, nil, nil
  for i, s in ipairs(steps) do
    if s.right then
      local off, w = compare_step(s)
      if off ~= false then
        if off then first, worst = i, w end
        break
      end
    else
      derived[#derived + 1] = s
    end
  end
  if #derived > 0 then
    if type(x) ~= "table" then return nil end
    local n = #x
    local cond = cc.define{condition = "exercise", variant = part.fn .. "_steps", nv = n // 3, steps = derived,
      value = function() return 0 end,
      gradient = function() return {table.unpack(zeros(n), 1, n)} end,
      hessian = function() return zeros(n) end}
    local okd, d = pcall(cond.derive, cond, x)
    if not okd then return nil end
    local f = d.first_departure
    if f then
      return string.format("step: the derivation departs at step '%s' (%s): %s", f.name, f.equations or "", f.verdict)
    end
  end
  if not first then return nil end
  local s = steps[first]
  return string.format("step: the derivation departs at step '%s' (%s): differs from the right value by %.2g",
                       s.name, s.equations or "", worst)
end

-- grade one part, and where it fails and gives steps, the first step that departs
local function grade_part(part, work)
  local ok, lines = grade_part_alone(part, work)
  if not ok and part.steps then
    local line = first_departure(part, work)
    if line then
      lines = lines or {}
      lines[#lines + 1] = line
    end
  end
  return ok, lines
end

-- the worked answer beside the grader (the table its solution.lua returns), or nil
local function load_solution()
  local here = arg and arg[0] and arg[0]:match("^(.*)/[^/]*$")
  local chunk = here and loadfile(here .. "/solution.lua", "t")
  if not chunk then return nil end
  local ok, sol = pcall(chunk)
  return ok and type(sol) == "table" and sol or nil
end

-- `f` wrapped to set called[k] when it runs
local function noted(f, called, k)
  return function(...)
    called[k] = true
    return f(...)
  end
end

-- Put part q's answer from `from` into the exercise's table for the time of one grading, and
-- return what undoes it. A function is replaced; a table the exercise builds on (403's
-- metatable of hyper-dual numbers) gets the fields of `from`'s, so the values the exercise
-- already made use them too.
local function lend(work, q, from, called)
  local mine = work[q.fn]
  if type(from) == "function" then
    work[q.fn] = noted(from, called, q.todo)
    return function() work[q.fn] = mine end
  end
  local kept = {}
  for k, v in pairs(mine) do kept[k] = v end
  if from == mine then from = kept end
  for k in pairs(kept) do mine[k] = nil end
  for k, v in pairs(from) do mine[k] = type(v) == "function" and noted(v, called, q.todo) or v end
  return function()
    for k in pairs(from) do mine[k] = nil end
    for k, v in pairs(kept) do mine[k] = v end
  end
end

-- Grade `part` with every earlier part's answer taken from `source` (the worked answer, or the
-- student's own), noting which are called, through the exercise's table as the exercise calls
-- them (M.force_jacobian(...) inside M.system): ok, lines and the set of earlier parts called,
-- directly or through one another, keyed by their number.
local function grade_with(part, parts, work, source)
  local undo, called = {}, {}
  for _, q in ipairs(parts) do
    local from = source[q.fn]
    local usable = type(from) == "function" or type(from) == "table" and type(work[q.fn]) == "table"
    if q.todo < part.todo and q.fn ~= part.fn and usable then undo[#undo + 1] = lend(work, q, from, called) end
  end
  local ran, ok, lines = pcall(grade_part, part, work)
  for i = #undo, 1, -1 do undo[i]() end
  if not ran then error(ok, 0) end
  return ok, lines, called
end

-- "(1), (3)" for the numbers set in `set`
local function numbers(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  for i, k in ipairs(list) do list[i] = "(" .. k .. ")" end
  return table.concat(list, ", "), #list
end

-- Each part is graded with the worked answers of the earlier parts it calls, so that a mistake
-- in (1) fails (1) alone; a part that calls a failing part is graded a second time with the
-- student's own parts throughout, and the feedback says whether the whole chain works.
function M.run(spec)
  local dir, hint = spec.dir or ("exercises/" .. spec.lesson), tonumber(spec.hint)
  local work, err = load_work(dir)
  if not work then error(err, 0) end
  local solution = load_solution()
  local own = {}
  for _, part in ipairs(spec.parts) do own[part.fn] = work[part.fn] end
  print(string.format("Lesson %s exercise, %s/exercise.lua:", spec.lesson, dir))
  local failed, chained, first, broken = {}, {}, nil, {}
  for _, part in ipairs(spec.parts) do
    local ok, lines, called = grade_with(part, spec.parts, work, solution or own)
    local using = solution and next(called) and " (graded with the worked " .. numbers(called) .. ")" or ""
    print(string.format("  (%d) %-28s %s%s", part.todo, part.name, ok and "passed" or "FAILED", using))
    for _, l in ipairs(lines or {}) do print("        " .. l) end
    local suspect = false
    for k in pairs(called) do suspect = suspect or failed[k] or chained[k] end
    if ok and suspect then
      -- the whole chain: this part again with the student's own earlier parts
      local ok_own, lines_own, called_own = grade_with(part, spec.parts, work, own)
      if not ok_own then
        chained[part.todo] = true
        local cause = {}
        for k in pairs(called_own) do if failed[k] then cause[k] = true end end
        local because = numbers(cause)
        print(string.format("        with your own %s it fails, because of %s: %s", numbers(called_own), because,
                            lines_own and lines_own[1] or "FAILED"))
        broken[#broken + 1] = string.format("(%d) fails with your %s", part.todo, because)
      end
    end
    if not ok then
      failed[part.todo] = true
      first = first or part
      if not hint then print("        hint: " .. part.hints[1]) end
    end
  end
  if hint and first then
    if hint < 1 or hint ~= math.floor(hint) or hint > #first.hints then
      error(string.format("--hint %s: part (%d) has %d hints (--hint 1 to %d)", spec.hint, first.todo, #first.hints,
                          #first.hints), 0)
    end
    print(string.format("\nHint %d of %d for part (%d): %s", hint, #first.hints, first.todo, first.hints[hint]))
  end
  local nfailed = select(2, numbers(failed))
  if nfailed == 0 then
    print("\nEvery part passes.")
  else
    print(string.format("\n%d of %d parts to do.", nfailed, #spec.parts))
    if #broken > 0 then print("The whole chain, with your own parts: " .. table.concat(broken, "; ") .. ".") end
  end
  return nfailed == 0
end

return M
