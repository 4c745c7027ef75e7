-- damping_chain_rule.lua — 001 (58): Cdot summed over the element's particles versus the
-- per-particle Cdot_m = (dC/dx_m)^T v_m that Pritchard first used.
-- Shows: (1) a free-falling cloth (no pins, no obstacles): a rigid translation does not
-- change C, so the summed Cdot is zero and the cloth falls at g; the per-particle form is
-- not zero for a translation and damps the fall itself. (2) the hanging cloth of 001 Table 1
-- at h = 20, 10, 5 ms with each form: which runs survive, how far the cloth falls, its
-- energy. 001 reports the per-particle form "resulting in frequent instability".
-- Level: intermediate.
--
--   clothcheck run lua/scenarios/damping_chain_rule.lua [--quick] [--n 16] [--T 2]
--                  [--h 0.02,0.01,0.005] [--frames 0] [--picture [N]] [--out DIR]
local cc = require "clothcheck"
local scene = require "scene"

local o = scene.options("damping_chain_rule", arg, {n = 16, T = 2.0, h = "0.02,0.01,0.005", fall_T = 0.5},
  {quick = {n = 6, T = 0.3, h = "0.02,0.005", fall_T = 0.1}})

local modes = {"summed", "per-particle"}
local lines, result = {}, {fall = {}, hanging = {}}

-- (1) free fall: the centre of mass height is the gravity energy / (M g)
local fall_runs = {}
for _, mode in ipairs(modes) do
  local mesh, nu = scene.cloth(o.n, 1.0, 0)
  local sim = scene.sim(mesh, {preset = "pritchard-table1", h = 0.01, damping = mode})
  local r = scene.run(sim, mesh, nu, {dir = o.dir, label = "fall-" .. mode, T = o.fall_T, frames = o.frames,
    progress = "free fall " .. mode})
  local M = sim:params().density * 1.0
  r.title = mode
  r.com = {}
  for i, g in ipairs(r.gravity) do r.com[i] = g / (M * 9.81) end
  local drop = -r.com[#r.com]
  -- backward Euler's own free fall after n steps of h: v_n = n h g, x_n = g h^2 n (n+1) / 2
  local n, h = r.steps, r.h
  local exact = 0.5 * 9.81 * h * h * n * (n + 1)
  result.fall[mode] = {drop = drop, exact = exact, ok = r.ok}
  fall_runs[#fall_runs + 1] = r
  lines[#lines + 1] = string.format(
    "free fall, %-12s: centre of mass fell %s m in %s s; undamped backward Euler: %s m (ratio %.4f)%s",
    mode, scene.fmt(drop), scene.fmt(r.t[#r.t]), scene.fmt(exact), drop / exact,
    r.ok and "" or ("; then FAILED: " .. r.msg))
end

-- (2) the hanging cloth with each form and step
local hang_runs = {}
for hs in o.h:gmatch("[^,]+") do
  for _, mode in ipairs(modes) do
    local sim, mesh, nu = scene.hanging(o.n, {preset = "pritchard-table1", h = tonumber(hs), damping = mode})
    local r = scene.run(sim, mesh, nu, {dir = o.dir, label = mode .. "-h" .. hs, T = o.T, frames = o.frames,
      picture = o.picture, progress = mode .. " h=" .. hs})
    r.title = mode .. ", h = " .. hs
    r.lowest = scene.lowest(r.positions)
    hang_runs[#hang_runs + 1] = r
    result.hanging[#result.hanging + 1] = {mode = mode, h = tonumber(hs), ok = r.ok, fail_time = r.fail_time,
      lowest = r.lowest, total = r.final.total}
    lines[#lines + 1] = scene.run_line(r) .. (r.ok and ("  lowest z " .. scene.fmt(r.lowest)) or "")
  end
end

local fall_series = {}
for _, r in ipairs(fall_runs) do fall_series[#fall_series + 1] = {title = r.title, x = r.t, y = r.com} end
local exact_y = {}
for i, t in ipairs(fall_runs[1].t) do exact_y[i] = -0.5 * 9.81 * t * (t + fall_runs[1].h) end
fall_series[#fall_series + 1] = {title = "undamped backward Euler -g t (t+h)/2", x = fall_runs[1].t, y = exact_y}
cc.plot{dir = o.dir, name = "free_fall", title = "free-falling cloth: centre of mass height",
  xlabel = "t (s)", ylabel = "z (m)", key = "bottom left", series = fall_series}
local ok_runs = {}
for _, r in ipairs(hang_runs) do if #r.t > 1 then ok_runs[#ok_runs + 1] = r end end
scene.plot_runs(o.dir, "hanging", "hanging cloth (001 Table 1): summed vs per-particle Cdot", ok_runs,
  {"stretch", "bend", "kinetic", "total"})
scene.summary(string.format("damping_chain_rule: %dx%d patches, T = %s s", o.n, o.n, o.T), lines)
return result
