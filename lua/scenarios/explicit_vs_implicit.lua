-- explicit_vs_implicit.lua — 004's comparison: at which step sizes does each integrator
-- survive? The hanging cloth of 001 Table 1 (stiff: k_stretch 5e3) is run for T seconds with
-- backward Euler (Baraff & Witkin), explicit Euler and symplectic Euler (004), stepping h
-- down from 20 ms. For each integrator the sweep stops after two surviving step sizes in a
-- row (T is short because the explicit runs need up to 50000 steps; every blow-up seen
-- happens within the first few milliseconds). "Survives" means no blow-up AND the total
-- energy never rises more than 1 mJ above
-- its start (nothing feeds energy in: the pins hold still, there is no wind).
-- Level: beginner; shows why Baraff & Witkin's large steps need the implicit method.
--
--   clothcheck run lua/scenarios/explicit_vs_implicit.lua [--quick] [--n 10] [--T 0.1]
--                  [--h 0.02,0.01,...] [--undamped] [--frames 0] [--picture [N]] [--out DIR]
-- --undamped sets Table 1's damping (0.2 x each stiffness) to zero, to see which of
-- stiffness and damping limits the explicit step.
local cc = require "clothcheck"
local scene = require "scene"

local o = scene.options("explicit_vs_implicit", arg,
  {n = 10, T = 0.1, h = "0.02,0.01,0.005,0.002,0.001,5e-4,2e-4,1e-4,5e-5,2e-5,1e-5,5e-6,2e-6", gain = 1e-3,
   undamped = false},
  {quick = {n = 5, T = 0.05}})

local integrators = {"backward-euler", "symplectic-euler", "explicit-euler"}
local lines, rows, result, plotted = {}, {}, {}, {}
for _, integ in ipairs(integrators) do
  local res = {tried = {}, largest = nil}
  result[integ] = res
  local streak = 0
  for hs in o.h:gmatch("[^,]+") do
    local h = tonumber(hs)
    local params = {preset = "pritchard-table1", h = h, integrator = integ}
    if o.undamped then params.d_stretch, params.d_shear, params.d_bend = 0, 0, 0 end
    local sim, mesh, nu = scene.hanging(o.n, params)
    local r = scene.run(sim, mesh, nu, {dir = o.dir, label = integ .. "-h" .. hs, T = o.T, frames = o.frames,
      picture = o.picture, progress = integ .. " h=" .. hs})
    local emax = -math.huge
    for _, e in ipairs(r.total) do if e > emax then emax = e end end
    local gain = emax - r.total[1]
    local survived = r.ok and gain <= o.gain
    res.tried[#res.tried + 1] = {h = h, ok = r.ok, survived = survived, gain = gain, fail_time = r.fail_time}
    if survived and not res.largest then res.largest = h end
    rows[#rows + 1] = {#rows + 1, h, r.ok and 1 or 0, survived and 1 or 0, gain, r.fail_time or r.t[#r.t],
      r.ms_per_step}
    lines[#lines + 1] = string.format("%-17s h = %-7s %s", integ, hs,
      survived and string.format("survives (energy gain %s J, %.3f ms/step)", scene.fmt(gain), r.ms_per_step)
      or r.ok and string.format("runs but gains %s J of energy", scene.fmt(gain))
      or string.format("blows up at t = %s s (%s)", scene.fmt(r.fail_time), r.msg:match("blow%-up[^;]*") or r.msg))
    if survived and streak == 0 then r.title = integ .. ", h = " .. hs; plotted[#plotted + 1] = r end
    streak = survived and streak + 1 or 0
    if streak == 2 then break end
  end
  lines[#lines + 1] = string.format("%-17s largest surviving step: %s", integ,
    res.largest and scene.fmt(res.largest) or "none")
end
assert(cc.write_csv(o.dir .. "/survival.csv",
  {"run", "h", "ok", "survived", "energy_gain", "end_time", "ms_per_step"}, rows))

-- survival against h: 1 survives, 0.5 runs but gains energy, 0 blows up
local series = {}
for k, integ in ipairs(integrators) do
  local x, y = {}, {}
  for _, t in ipairs(result[integ].tried) do
    x[#x + 1] = t.h
    y[#y + 1] = (t.survived and 1 or t.ok and 0.5 or 0) + 0.02 * (k - 2)
  end
  series[#series + 1] = {title = integ, x = x, y = y, with = "linespoints"}
end
cc.plot{dir = o.dir, name = "survival",
  title = "hanging cloth, 001 Table 1: 1 survives, 0.5 gains energy, 0 blows up",
  xlabel = "step h (s)", ylabel = "outcome", logx = true, key = "center right", series = series}
if #plotted > 0 then
  scene.plot_runs(o.dir, "energies", "largest surviving step of each integrator", plotted,
    {"stretch", "bend", "kinetic", "total"})
end
scene.summary(string.format("explicit_vs_implicit: %dx%d patches, T = %s s%s", o.n, o.n, o.T,
  o.undamped and ", damping off" or ""), lines)
return result
