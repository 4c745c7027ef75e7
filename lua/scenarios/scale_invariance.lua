-- scale_invariance.lua — does the cloth keep its shape when the mesh is refined?
-- Shows: 001 5.2 argues for alpha = a^(3/4) in the stretch and shear conditions, 003 3.1
-- for alpha = sqrt(a) (energy proportional to area); Baraff & Witkin used alpha = a.
-- The hanging cloth of 001 (1 m square pinned at two corners, Table 1), started hanging
-- straight down so that it settles without a swing, is run at grids from coarse to fine for
-- each area power p. The stiffness and damping of stretch and shear are
-- rescaled per p so that all powers give the SAME simulation on the coarsest grid
-- (k_p = k * a0^(2*0.75 - 2p), a0 the coarsest triangle's area); any difference on finer
-- grids is then the power's doing. Measured: the sag (how far the lowest point hangs below
-- its rest position 1 m under the pins: the stretch under the cloth's weight) and the total
-- energy at time T, one plot with both against resolution.
-- Level: intermediate; the 88x88 runs dominate the time. MPCG is preconditioned "auto" (scene.sim):
-- the preset's Ascher & Boxerman blocks need hundreds of iterations a step at 88x88, and the
-- multigrid takes over there (docs/performance.md).
--
--   clothcheck run lua/scenarios/scale_invariance.lua [--quick] [--grids 11,22,44,88]
--                  [--powers 1,0.75,0.5] [--T 1] [--h 0.01] [--frames 0] [--out DIR]
local cc = require "clothcheck"
local scene = require "scene"

local o = scene.options("scale_invariance", arg, {grids = "11,22,44,88", powers = "1,0.75,0.5", T = 1.0, h = 0.01},
  {quick = {grids = "4,8", T = 0.3}})

local function list(text)
  local v = {}
  for s in tostring(text):gmatch("[^,]+") do v[#v + 1] = assert(tonumber(s), "not a number: " .. s) end
  return v
end
local grids, powers = list(o.grids), list(o.powers)
local base = {}
for k, v in pairs(cc.sim(cc.grid(2, 2), {preset = "pritchard-table1"}):params()) do base[k] = v end
local a0 = (1 / grids[1]) ^ 2 / 2

local rows, results, lines = {}, {}, {}
local t_start = cc.wall_time()
for _, p in ipairs(powers) do
  local scale = a0 ^ (2 * 0.75 - 2 * p)
  local res = {power = p, n = {}, sag = {}, total = {}, kinetic = {}, ok = {}}
  results[#results + 1] = res
  for _, n in ipairs(grids) do
    local params = {preset = "pritchard-table1", h = o.h, area_power = p,
      k_stretch = base.k_stretch * scale, k_shear = base.k_shear * scale,
      d_stretch = base.d_stretch * scale, d_shear = base.d_shear * scale}
    local sim, mesh, nu = scene.hanging(n, params, true)
    local label = string.format("p%s_n%d", scene.fmt(p), n)
    local r = scene.run(sim, mesh, nu, {dir = o.dir, label = label, T = o.T, frames = o.frames,
      picture = o.picture, progress = "p=" .. p .. " n=" .. n})
    local sag = -scene.lowest(r.positions) - 1.0
    local i = #res.n + 1
    res.n[i], res.sag[i], res.ok[i] = n, sag, r.ok
    res.total[i], res.kinetic[i] = r.final.total, r.final.kinetic
    rows[#rows + 1] = {p, n, r.ok and 1 or 0, sag, r.final.total, r.final.stretch, r.final.kinetic, r.ms_per_step}
    lines[#lines + 1] = string.format(
      "p = %-5s n = %-3d %s sag %s m  total %s J  stretch %s J  kinetic %s J  (%.1f ms/step)",
      scene.fmt(p), n, r.ok and "" or ("FAILED at t = " .. scene.fmt(r.fail_time) .. " s;"), scene.fmt(sag),
      scene.fmt(r.final.total), scene.fmt(r.final.stretch), scene.fmt(r.final.kinetic), r.ms_per_step)
  end
  -- how much the sag changed from the coarsest to the finest grid
  res.change = res.sag[#res.sag] / res.sag[1]
  lines[#lines + 1] = string.format("p = %s: sag finest / coarsest = %.3f", scene.fmt(p), res.change)
end
assert(cc.write_csv(o.dir .. "/scale_invariance.csv",
  {"area_power", "patches", "ok", "sag", "total", "stretch", "kinetic", "ms_per_step"}, rows))

local sag_series, energy_series = {}, {}
for _, res in ipairs(results) do
  local t = "alpha = a^{" .. scene.fmt(res.power) .. "}"
  sag_series[#sag_series + 1] = {title = t, x = res.n, y = res.sag, with = "linespoints"}
  energy_series[#energy_series + 1] = {title = t, x = res.n, y = res.total, with = "linespoints"}
end
cc.plot{dir = o.dir, name = "scale_invariance", width = 1200, height = 500, layout = {1, 2},
  title = string.format("hanging cloth at t = %s s, stiffness matched on the %dx%d grid", scene.fmt(o.T),
    grids[1], grids[1]),
  panels = {
    {title = "sag: lowest point below its rest position", xlabel = "patches per side", ylabel = "m", logx = true,
     key = "top left", series = sag_series},
    {title = "total energy", xlabel = "patches per side", ylabel = "J", logx = true, key = "top right",
     series = energy_series},
  }}
lines[#lines + 1] = string.format("%.1f s wall; outputs in %s", cc.wall_time() - t_start, o.dir)
scene.summary("scale_invariance: grids " .. o.grids .. ", area powers " .. o.powers, lines)
return {results = results}
