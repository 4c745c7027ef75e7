-- timestep.lua — 003 Fig 3.3: the tablecloth with fixed time steps h = 1, 2, 5, 10, 20 ms.
-- Shows: backward Euler's numerical damping: larger steps take energy out of the swing,
-- visible in the kinetic and total energy over the first 0.4 s (the thesis's window).
-- A step that blows up is recorded as that step's result. Level: intermediate.
--
--   clothcheck run lua/scenarios/timestep.lua [--quick | --full] [--n 22] [--T 0.4]
--                  [--values 0.001,0.002,0.005,0.01,0.02] [--frames 0] [--picture [N]] [--out DIR]
local scene = require "scene"

local o = scene.options("timestep", arg, {n = 22, T = 0.4, values = "0.001,0.002,0.005,0.01,0.02"},
  {quick = {n = 8, T = 0.06, values = "0.005,0.02"}, full = {n = 66}})

local values = {}
for v in o.values:gmatch("[^,]+") do values[#values + 1] = tonumber(v) end
local runs, lines = scene.sweep(o, "h", values, o.T, {preset = "thesis-table3.1"})
scene.plot_runs(o.dir, "kinetic", string.format("tablecloth %dx%d: kinetic and total energy per step size", o.n, o.n),
  runs, {"kinetic", "total"})

-- energy taken out by the integrator: the total energy at T, relative to the smallest step
local ref = runs[1]
for _, r in ipairs(runs) do
  if r.ok and ref.ok then
    r.total_minus_ref = r.final.total - ref.final.total
    lines[#lines + 1] = string.format("h = %-6s total energy at T %s J, %s J below h = %s; kinetic %s J",
      scene.fmt(r.value), scene.fmt(r.final.total), scene.fmt(ref.final.total - r.final.total),
      scene.fmt(ref.value), scene.fmt(r.final.kinetic))
  end
end
scene.summary(string.format("timestep: %dx%d patches, T = %s s, Table 3.1", o.n, o.n, o.T), lines)
return {runs = runs}
