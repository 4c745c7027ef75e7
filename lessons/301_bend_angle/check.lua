-- The grader of lesson 301's exercise (clothcheck lesson 301 --check [DIR] [--hint K]): the
-- student's theta against the toolkit's bend value (pritchard, 001 (30)) on folds of -170 to
-- 170 degrees, random hinges and folds of 1e-9 rad. A wrong theta is named: "abs" (arccos,
-- the fold's sign lost), "sign" (labels the other way round), "translation" (it changes when
-- the hinge is moved: a vertex where a difference belongs), "relabelled" (the right theta of
-- the hinge with its vertices in another order), "precision" (right at large folds, wrong at
-- small ones), or by how much it is off.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local bend = cc.condition("bend", "pritchard")

-- a hinge with its edge on the y axis, triangle B turned about it by phi
local function folded(phi)
  return {-1, 0.1, 0,  0, -0.5, 0,  0, 0.6, 0,  math.cos(phi), 0.2, math.sin(phi)}
end

-- the hinges graded: a fold sweep and random hinges (fixed seed); then tiny folds
local function hinges()
  local big, tiny = {}, {}
  for deg = -170, 170, 20 do big[#big + 1] = folded(math.rad(deg)) end
  local seed = 12345
  local function rnd() seed = (1103515245 * seed + 12345) % 2147483648; return seed / 2147483648 - 0.5 end
  for _ = 1, 12 do
    local x = {}
    for i = 1, 12 do x[i] = 2 * rnd() end
    big[#big + 1] = x
  end
  for _, phi in ipairs({1e-9, -1e-9, 3e-8, -3e-8}) do tiny[#tiny + 1] = folded(phi) end
  return big, tiny
end

-- theta of the hinges read with their vertices in another order (the right values of a hinge
-- relabelled): the alternatives that are not theta or -theta again
local function relabellings(xs, want)
  local alts, perms = {}, {}
  local function permute(prefix, rest)
    if #rest == 0 then perms[#perms + 1] = prefix; return end
    for i = 1, #rest do
      local p, r = {table.unpack(prefix)}, {table.unpack(rest)}
      p[#p + 1] = table.remove(r, i)
      permute(p, r)
    end
  end
  permute({}, {0, 1, 2, 3})
  for _, perm in ipairs(perms) do
    local vals, ok = {}, true
    for i, x in ipairs(xs) do
      local y = {}
      for m = 0, 3 do for s = 1, 3 do y[3 * m + s] = x[3 * perm[m + 1] + s] end end
      local good, r = pcall(bend.eval, bend, y, {})
      if not good or r.value[1] ~= r.value[1] then ok = false; break end
      vals[i] = r.value[1]
    end
    if ok then
      local same, neg = 0, 0
      for i = 1, #want do
        same, neg = math.max(same, math.abs(vals[i] - want[i])), math.max(neg, math.abs(vals[i] + want[i]))
      end
      if same > 1e-9 and neg > 1e-9 then
        alts[#alts + 1] = {vals, string.format("relabelled: your theta is (30)'s with x%d, x%d, x%d, x%d in the places of " ..
          "x0, x1, x2, x3 -- your shared edge is x%d-x%d, your wings x%d (A) and x%d (B); (24)-(27) share x1-x2, " ..
          "with wing x0 in A and x3 in B", perm[1], perm[2], perm[3], perm[4], perm[2], perm[3], perm[1], perm[4])}
      end
    end
  end
  return alts
end

local function check_theta(f, _, part)
  local big, tiny = hinges()
  local function run(xs)
    local got, want = {}, {}
    for i, x in ipairs(xs) do
      got[i], want[i] = f({table.unpack(x)}), bend:eval(x, {}).value[1]
      if got[i] == nil then return nil end
      if type(got[i]) ~= "number" then error("theta must return a number", 0) end
    end
    return got, want
  end
  local got, want = run(big)
  if not got then return false, {grade.todo_message(part)} end
  local abs_off, negatives = 0, 0
  for i = 1, #want do
    abs_off = math.max(abs_off, math.abs(got[i] - math.abs(want[i])))
    if want[i] < -1e-3 then negatives = negatives + 1 end
  end
  if abs_off < 1e-9 and negatives > 0 then
    return false, {string.format("abs: theta is |theta| on all %d hinges (%d of them folded the negative way): " ..
                                 "arccos(nA^.nB^) cannot tell a fold one way from the other", #want, negatives)}
  end
  local ok, lines = grade.compare(got, want, "theta", part, 1e-10)
  if not ok then
    local inv_ok, inv = grade.invariance(f, {big[#big]}, "theta", {kind = "translation",
      name = "the hinge is moved by t = (0.3, -1.2, 2.5)",
      move = function(args) return {grade.translate(args[1], {0.3, -1.2, 2.5})} end,
      fix = "the normals and the edge are differences of vertices -- x2 - x0, x1 - x0, x1 - x3, x2 - x3, x1 - x2 -- never a vertex alone"})
    if not inv_ok then return false, inv end
    return grade.classify(got, want, "theta", part, 1e-10, relabellings(big, want))
  end
  local gt, wt = run(tiny)
  local worst = 0
  for i = 1, #wt do worst = math.max(worst, math.abs(gt[i] - wt[i]) / math.abs(wt[i])) end
  if worst > 1e-6 then
    return false, {string.format("precision: right at large folds, off by %.2g (relative) at folds of 1e-9 to 3e-8 rad: " ..
                                 "cos theta rounds to 1 there, so take the angle from sin theta as well", worst)}
  end
  return true
end

return grade.run{lesson = "301_bend_angle", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "theta, 001 (30)", fn = "theta", kind = "check", check = check_theta,
   hints = {"Two numbers fix an angle in (-pi, pi]: its cosine (28) and its sine (29); one of them alone does not.",
            "nA = unit((x2 - x0) x (x1 - x0)), nB = unit((x1 - x3) x (x2 - x3)), e = unit(x1 - x2); " ..
            "cos = nA.nB, sin = (nA x nB).e.",
            "Which inverse function takes both numbers and so keeps the fold's sign and its quadrant? math.acos and " ..
            "math.asin each take one; look at what Lua's math.atan accepts."}},
}}
