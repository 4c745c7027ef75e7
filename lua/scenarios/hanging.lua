-- hanging.lua — a cloth pinned at two corners, 001 Table 1 (preset "pritchard-table1").
-- Shows: Baraff & Witkin's backward Euler with Pritchard's parameters (k_stretch 5e3,
-- k_shear 0.5e3, k_bend 1e-5, damping 0.2 x each, h = 0.02, alpha = a^(3/4)); a 1 m
-- square cloth held flat, let go, swings down from its two pinned corners and settles.
-- Measures the sag, the energies, the pins' reaction against the cloth's weight, and the
-- cost per step (ms, MPCG iterations). Level: first scenario, read this one first.
--
-- Table 1's own step, h = 0.02, is tried first and then h = 0.01 (001 6: "almost always
-- works with a step size of 0.01 seconds"); a blow-up is recorded, not raised.
--
--   clothcheck run lua/scenarios/hanging.lua [--quick] [--n 20] [--T 3] [--h 0.02,0.01]
--                  [--frames 5] [--picture [N]] [--out DIR]
local cc = require "clothcheck"
local scene = require "scene"

local o = scene.options("hanging", arg, {n = 20, T = 3.0, h = "0.02,0.01", frames = 5},
  {quick = {n = 8, T = 0.4, frames = 5}})

-- one run per step size; the last one that survives is the one measured below
local runs, sim, mesh, nu, run = {}, nil, nil, nil, nil
for hs in tostring(o.h):gmatch("[^,]+") do
  local h = tonumber(hs)
  local s, m, n = scene.hanging(o.n, {preset = "pritchard-table1", h = h})
  local r = scene.run(s, m, n, {dir = o.dir, label = "h" .. hs, T = o.T, frames = o.frames,
    picture = o.picture, progress = "hanging h=" .. hs})
  r.title = "h = " .. hs
  runs[#runs + 1] = r
  if r.ok or not run then sim, mesh, nu, run = s, m, n, r end
end

-- the pins' reaction: at rest it carries the cloth's weight (density 0.1 kg/m^2, 1 m^2)
local fz = 0
for _, v in ipairs{scene.vertex(nu, 0, 0), scene.vertex(nu, nu - 1, 0)} do
  fz = fz + select(3, sim:reaction(v))
end
local weight = sim:params().density * 1.0 * 9.81
local zmin = scene.lowest(run.positions)
local zmid = run.positions[3 * scene.vertex(nu, (nu - 1) // 2, nu - 1)]

scene.plot_runs(o.dir, "energies", "hanging cloth, 001 Table 1, " .. o.n .. "x" .. o.n .. " patches", runs,
  {"stretch", "shear", "bend", "kinetic"})
scene.surface(o.dir, "final", sim, nu, string.format("hanging cloth at t = %.2f s", sim.time))

local lines = {}
for _, r in ipairs(runs) do lines[#lines + 1] = scene.run_line(r) end
local result = {
  runs = runs, h = run.h, ok = run.ok, msg = run.msg, steps = run.steps, time = sim.time, sag = -zmin,
  mid_free_edge_z = zmid,
  reaction_z = fz, weight = weight, final = run.final, ms_per_step = run.ms_per_step,
  cg_per_step = run.cg_per_step, wall = run.wall, frames = run.frames, run = run,
}
lines[#lines + 1] = string.format("measured below: the run with h = %s", run.h)
for _, l in ipairs{
  string.format("lowest point z = %s m, middle of the free edge z = %s m", scene.fmt(zmin), scene.fmt(zmid)),
  string.format("pins' vertical reaction %s N against the weight %s N (ratio %.3f)",
    scene.fmt(fz), scene.fmt(weight), fz / weight),
  string.format("%d OBJ frames, %.2f s wall; outputs in %s", run.frames, run.wall, o.dir),
} do lines[#lines + 1] = l end
scene.summary("hanging: " .. o.n .. "x" .. o.n .. " patches, T = " .. o.T .. " s", lines)
return result
