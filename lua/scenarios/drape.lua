-- drape.lua — 003's tablecloth over a round table: 66x66 patches, Table 3.1 parameters
-- (preset "thesis-table3.1": k_st 100, k_sh 10, k_b 1e-5, d_st 20, d_sh 2, d_b 2e-6, air
-- drag 0.1, MPCG tolerance 0.01, alpha = sqrt(a), h = 5 ms).
-- Shows: the thesis's experiment set-up, the drape after 2.4 s (Figs 3.2-3.6 show 2.4 s)
-- and its energy picture (Fig 3.1). The thesis gives no sizes; scene.table holds ours
-- (cloth 1.6 m, table radius 0.5 m). The preset's 5 ms step is tried first; when a step
-- blows up the failure is recorded and the run starts again with half the step.
-- Level: intermediate; the run takes a minute or two at 66x66.
--
--   clothcheck run lua/scenarios/drape.lua [--quick] [--n 66] [--T 2.4] [--h 0.005]
--                  [--lift 0.02] [--adaptive] [--frames 40] [--picture [N]] [--out DIR]
-- --lift is the cloth's starting height above the table top; --adaptive steps with
-- sim:advance (003's adaptive steps under the preset's stretch limit 5e-5) instead of
-- fixed steps of h.
local scene = require "scene"

local o = scene.options("drape", arg, {n = 66, T = 2.4, h = 0.005, frames = 40, picture = 6, lift = 0.02,
  adaptive = false},
  {quick = {n = 12, T = 0.2, frames = 10, picture = 2}})

local runs, run, sim, mesh, nu = scene.run_halving(function(h)
  return scene.tablecloth(o.n, {preset = "thesis-table3.1", h = h}, o.lift)
end, o.h, 0.0005, {dir = o.dir, label = "drape", T = o.T, frames = o.frames, picture = o.picture,
  adaptive = o.adaptive})

scene.plot_runs(o.dir, "energies", string.format("tablecloth %dx%d, 003 Table 3.1", o.n, o.n), runs,
  {"stretch", "shear", "bend", "kinetic"})
scene.surface(o.dir, "final", sim, nu, string.format("tablecloth %dx%d at t = %.2f s", o.n, o.n, sim.time))

-- how far the cloth hangs below the table top, and how much of it lies on the table
local zmin = scene.lowest(run.positions)
local on_top = 0
for k = 1, sim.nv do
  local x, y, z = run.positions[3 * k - 2], run.positions[3 * k - 1], run.positions[3 * k]
  if x * x + y * y < scene.table.radius ^ 2 and z < scene.table.top + 0.01 then on_top = on_top + 1 end
end

local lines = {}
for _, r in ipairs(runs) do lines[#lines + 1] = scene.run_line(r) end
lines[#lines + 1] = string.format("lowest point %s m below the table top; %d of %d vertices rest on the table",
  scene.fmt(scene.table.top - zmin), on_top, sim.nv)
lines[#lines + 1] = string.format("run with h = %s: %d steps, %.1f s wall, %d OBJ frames, %d energy pictures in %s",
  scene.fmt(run.h), run.steps, run.wall, run.frames, run.picture and #run.picture.files or 0, run.dir)
scene.summary(string.format("drape: %dx%d patches, T = %s s, lift %s m%s", o.n, o.n, o.T, scene.fmt(o.lift),
  o.adaptive and ", adaptive steps" or ""), lines)

return {runs = runs, ok = run.ok, h = run.h, steps = run.steps, drop = scene.table.top - zmin,
  on_table = on_top, final = run.final, ms_per_step = run.ms_per_step, cg_per_step = run.cg_per_step,
  wall = run.wall, frames = run.frames, run = run}
