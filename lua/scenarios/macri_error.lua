-- macri_error.lua — 001 5.1: the bend angle swept through (-pi, pi) on one hinge, no
-- simulation. Every bend variant's value and gradient is compared with the exact
-- derivative (pritchard-exact, which the test suite shows exact; bridson is checked
-- against it too), showing where and why Macri's formulation breaks.
-- The hinge, in Pritchard's labels (x1, x2 the shared edge):
--   x0 = (0, 1, 0), x1 = (0.5, 0, 0), x2 = (-0.5, 0, 0), x3 = (0, -cos t, -sin t)
-- so that t = 0 is flat and the signed angle theta = atan2((nA x nB).e, nA.nB) equals +t
-- (checked below against pritchard-exact's value at every t).
-- Level: beginner; runs in well under a second.
--
--   clothcheck run lua/scenarios/macri_error.lua [--quick] [--samples 720] [--out DIR]
local cc = require "clothcheck"
local scene = require "scene"

local o = scene.options("macri_error", arg, {samples = 720}, {quick = {samples = 72}})
local variants = {"pritchard", "pritchard-exact", "macri", "bridson"}
local conds = {}
for _, v in ipairs(variants) do conds[v] = cc.condition("bend", v) end

local function hinge(t) return {0, 1, 0, 0.5, 0, 0, -0.5, 0, 0, 0, -math.cos(t), -math.sin(t)} end
local function norm(g) local s = 0 for _, x in ipairs(g) do s = s + x * x end return math.sqrt(s) end

-- t from -pi to pi, end points left out (theta = +-pi is the fully folded hinge)
local ts = {}
for k = 1, o.samples - 1 do ts[#ts + 1] = -math.pi + 2 * math.pi * k / o.samples end

local data = {}
for _, v in ipairs(variants) do data[v] = {value = {}, verr = {}, gerr = {}, g3 = {}} end
local sign_ok = true
local rows = {}
for i, t in ipairs(ts) do
  local x = hinge(t)
  local ref = conds["pritchard-exact"]:eval(x, {rest = 0})
  local gref, nref = ref.gradient[1], norm(ref.gradient[1])
  if math.abs(ref.value[1] - t) > 1e-12 then sign_ok = false end
  local row = {t}
  for _, v in ipairs(variants) do
    local r = conds[v]:eval(x, {rest = 0})
    local g = r.gradient[1]
    local diff = {}
    for k = 1, 12 do diff[k] = g[k] - gref[k] end
    local d = data[v]
    d.value[i] = r.value[1]
    d.verr[i] = math.abs(r.value[1] - ref.value[1])
    local e = norm(diff) / nref
    d.gerr[i] = e == e and e or math.huge            -- a NaN gradient counts as wrong
    -- dC/dx0 in y (in the plane of triangle A, across the edge): exactly 0 at every t
    d.g3[i] = g[2]
    row[#row + 1], row[#row + 2], row[#row + 3] = r.value[1], d.gerr[i], d.g3[i]
  end
  rows[i] = row
end
local names = {"t"}
for _, v in ipairs(variants) do
  names[#names + 1], names[#names + 2], names[#names + 3] = v .. "_value", v .. "_grad_relerr", v .. "_dC_dx0y"
end
assert(cc.write_csv(o.dir .. "/sweep.csv", names, rows))

-- where the gradient is wrong: by Macri's regime (|sin t| > |cos t| uses -1/sin dcos/dx)
local lines, result = {}, {sign_ok = sign_ok, variants = {}}
lines[#lines + 1] = "sign check: pritchard-exact's value equals +t at every sample: " .. tostring(sign_ok)
for _, v in ipairs(variants) do
  local d = data[v]
  local worst, at, wrong, wrong_sin, wrong_cos, n_sin, n_cos, vworst = 0, 0, 0, 0, 0, 0, 0, 0
  for i, t in ipairs(ts) do
    local bad = d.gerr[i] > 1e-6
    local sin_regime = math.abs(math.sin(t)) > math.abs(math.cos(t))
    if sin_regime then n_sin = n_sin + 1 else n_cos = n_cos + 1 end
    if bad then
      wrong = wrong + 1
      if sin_regime then wrong_sin = wrong_sin + 1 else wrong_cos = wrong_cos + 1 end
    end
    if d.gerr[i] > worst then worst, at = d.gerr[i], t end
    if d.verr[i] > vworst then vworst = d.verr[i] end
  end
  result.variants[v] = {worst_gradient = worst, worst_at = at, wrong = wrong, samples = #ts,
    wrong_sin_regime = wrong_sin, wrong_cos_regime = wrong_cos, worst_value = vworst}
  lines[#lines + 1] = string.format("%-16s value off by up to %s; gradient relative error up to %s (at t = %s); "
    .. "wrong (> 1e-6) at %d of %d angles: %d of %d with |sin| > |cos|, %d of %d otherwise",
    v, scene.fmt(vworst), scene.fmt(worst), scene.fmt(at), wrong, #ts, wrong_sin, n_sin, wrong_cos, n_cos)
end

-- Macri's gradient just before and after each switch between his two formulas
result.jumps = {}
for _, t in ipairs{-3 * math.pi / 4, -math.pi / 4, math.pi / 4, 3 * math.pi / 4} do
  local function g(s) return conds.macri:eval(hinge(s), {rest = 0}).gradient[1] end
  local a, b = g(t - 1e-9), g(t + 1e-9)
  local d = {}
  for k = 1, 12 do d[k] = b[k] - a[k] end
  result.jumps[#result.jumps + 1] = norm(d)
  lines[#lines + 1] = string.format("macri at t = %6.3f (|sin| = |cos|): gradient jumps by %s across the switch "
    .. "(dC/dx0 y: %s -> %s; exact 0)", t, scene.fmt(norm(d)), scene.fmt(a[2]), scene.fmt(b[2]))
end
do
  local g = conds.macri:eval(hinge(0), {rest = 0})
  lines[#lines + 1] = string.format("macri at t = 0 (flat): value %s, gradient norm %s",
    scene.fmt(g.value[1]), scene.fmt(norm(g.gradient[1])))
end

local function series(key, logy)
  local s = {}
  for _, v in ipairs(variants) do
    local x, y = {}, {}
    for i, t in ipairs(ts) do
      local val = data[v][key][i]
      if not logy or (val > 0 and val < math.huge) then
        x[#x + 1], y[#y + 1] = t, logy and math.max(val, 1e-17) or val
      end
    end
    if #x > 0 then s[#s + 1] = {title = v, x = x, y = y} end
  end
  return s
end
-- the gradient error panel: exact zeros are drawn at 1e-17 so every variant shows
local gerr = {}
for _, v in ipairs(variants) do
  local y = {}
  for i in ipairs(ts) do y[i] = math.min(math.max(data[v].gerr[i], 1e-17), 1e3) end
  gerr[#gerr + 1] = {title = v, x = ts, y = y}
end
cc.plot{dir = o.dir, name = "macri_error", width = 1300, height = 900, layout = {2, 2},
  title = "one hinge folded through (-pi, pi); Macri switches formula where |sin t| = |cos t| (t = +-pi/4, +-3pi/4)",
  panels = {
    {title = "value C (exact: theta = t)", xlabel = "t (rad)", ylabel = "C", key = "top left",
     series = series("value")},
    {title = "gradient: |dC/dx - exact| / |exact| (floored at 1e-17)", xlabel = "t (rad)", ylabel = "relative error",
     logy = true, key = "bottom right", series = gerr},
    {title = "dC/dx0, y component (exact: 0)", xlabel = "t (rad)", ylabel = "dC/dx0_y", key = "bottom left",
     series = series("g3")},
    {title = "value error |C - theta|", xlabel = "t (rad)", ylabel = "rad", key = "top left",
     series = series("verr")},
  }}
scene.summary(string.format("macri_error: %d angles in (-pi, pi)", #ts), lines)
return result
