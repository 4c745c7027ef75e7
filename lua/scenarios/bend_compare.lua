-- bend_compare.lua — every bend formulation on the same bending-dominated scene, side by side.
-- Shows: what the choice of bend model and of its derivatives does to a simulation. The
-- formulations: Pritchard's constant-magnitude derivatives of theta (001 (24)-(57)), the exact
-- appendix form (A.8)-(A.13), Macri's switched formulas (001 5.1, wrong on purpose), Bridson's
-- dihedral angle as a condition, Bridson's bending force model (bend_condition =
-- "bridson-force"; its bend energy is a work potential), Discrete Shells (Grinspun et al. 2003,
-- theta weighted by |e|^2/A of the rest mesh) and the quadratic model (Bergou et al. 2006).
-- The default scene is a cantilever: a strip 0.5 m x 0.1 m (Table 1 cloth, k_bend 0.02)
-- clamped along its short edge x = 0 (two columns of vertices pinned) sags under gravity. The
-- unweighted-theta formulations sag about twice as far as Discrete Shells and the quadratic
-- model, Bridson's force model further still, Macri's formulas differently again
-- (docs/scenarios.md). --tablecloth runs Table 3.1's tablecloth over the round table instead.
-- Outputs: compare.png (energies, iterations, ms per step, the final side profiles),
-- profiles.gif (the side profiles of every run over time), anim_<label>.gif and
-- shape_<label>.png per formulation. Every formulation runs with the same fixed step h, so a
-- blow-up is the formulation's own result. The configurations are data: add a formulation as
-- one line in `variants` below. Level: intermediate. This is `make demo`'s main job.
--
--   clothcheck run lua/scenarios/bend_compare.lua [--quick | --full | --tablecloth] [--n 30]
--                  [--T 1.5] [--h 0.01] [--k_bend 0.02] [--gif 40] [--psd_project]
--                  [--stretch_hessian MODE] [--shear_hessian MODE] [--picture [N]] [--out DIR]
-- --n: patches along the strip (n/5 across it), or per side of the tablecloth.
-- --gif N: frames of the animations (0: none). --psd_project projects every element stiffness
-- to PSD before assembly (all formulations). --stretch_hessian, --shear_hessian: full
-- (default), clamp, gauss-newton or project, how that term's C d2C enters the system matrix
-- (sim.h, cc_hessian_mode).
local cc = require "clothcheck"
local scene = require "scene"

local variants = {
  {label = "pritchard",       params = {bend_variant = "pritchard"}},
  {label = "pritchard-exact", params = {bend_variant = "pritchard-exact"}},
  {label = "macri",           params = {bend_variant = "macri"}},
  {label = "bridson",         params = {bend_variant = "bridson"}},
  {label = "bridson-force",   params = {bend_condition = "bridson-force"}},
  {label = "discrete-shells", params = {bend_variant = "discrete-shells"}},
  {label = "quadratic",       params = {bend_variant = "quadratic"}},
}

local o = scene.options("bend_compare", arg, {scene = "strip", n = 30, T = 1.5, h = 0.01, k_bend = 0.02,
  gif = 40, psd_project = false, stretch_hessian = "full", shear_hessian = "full"},
  {full = {n = 60, T = 3},
   tablecloth = {scene = "tablecloth", n = 33, T = 1.2, h = 0.0025, k_bend = 1e-5}})
if o.quick then o.n, o.T, o.gif = math.min(o.n, 10), math.min(o.T, 0.2), math.min(o.gif, 5) end

for _, key in ipairs({"stretch_hessian", "shear_hessian"}) do
  local ok = {full = true, clamp = true, ["gauss-newton"] = true, project = true}
  if not ok[o[key]] then
    error(string.format("bend_compare: --%s must be full, clamp, gauss-newton or project (got '%s')", key, tostring(o[key])), 0)
  end
end
if o.scene ~= "strip" and o.scene ~= "tablecloth" then
  error("bend_compare: --scene must be strip or tablecloth (got '" .. tostring(o.scene) .. "')", 0)
end
if o.gif < 0 or o.gif ~= math.floor(o.gif) then error("bend_compare: --gif must be a whole number >= 0", 0) end

-- the cantilever (scene.strip: n x n/5 patches) or the tablecloth; sim, mesh, nu, middle row
local function make(params)
  if o.scene == "strip" then return scene.strip(o.n, math.max(1, o.n // 5), params) end
  local sim, mesh, nu = scene.tablecloth(o.n, params)
  return sim, mesh, nu, (nu - 1) // 2
end

-- the side profile of row j: x and z of its vertices
local function profile(positions, nu, j)
  local x, z = {}, {}
  for i = 0, nu - 1 do
    local k = scene.vertex(nu, i, j)
    x[#x + 1], z[#z + 1] = positions[3 * k - 2], positions[3 * k]
  end
  return x, z
end

local runs, done, lines = {}, {}, {}
local t_start = cc.wall_time()
for _, v in ipairs(variants) do
  local params = {preset = o.scene == "strip" and "pritchard-table1" or "thesis-table3.1", h = o.h, k_bend = o.k_bend,
    d_bend = o.scene == "strip" and 0.2 * o.k_bend or nil, psd_project = o.psd_project,
    stretch_hessian = o.stretch_hessian, shear_hessian = o.shear_hessian}
  for k, x in pairs(v.params) do params[k] = x end
  local made, sim, mesh, nu, row = pcall(make, params)
  if not made then
    -- the simulator does not accept this configuration: a result, reported as such
    local why = tostring(sim):gsub("^[^:]*:%d+: ", "")
    runs[#runs + 1] = {label = v.label, rejected = why, ok = false}
    lines[#lines + 1] = string.format("%-22s REJECTED by cc.sim: %s", v.label, why)
  else
    local nsteps = math.max(1, math.floor(o.T / o.h + 0.5))
    local every = o.gif > 0 and math.max(1, nsteps // o.gif) or 0
    local shots = {}   -- the side profile every `every` steps, for the animations
    local function shoot(s)
      local x, z = profile(sim:positions(), nu, row)
      shots[#shots + 1] = {t = sim.time, x = x, z = z, step = s}
    end
    if every > 0 then shoot(0) end
    local r = scene.run(sim, mesh, nu, {dir = o.dir, label = v.label, T = o.T, frames = o.frames,
      picture = o.picture, progress = "bend " .. v.label,
      on_step = every > 0 and function(_, s) if s % every == 0 then shoot(s) end end or nil})
    r.lowest = scene.lowest(r.positions)
    r.profile_x, r.profile_z = profile(r.positions, nu, row)
    r.tip = r.profile_z[#r.profile_z]
    r.shots = shots
    r.nu = nu
    runs[#runs + 1] = r
    done[#done + 1] = r
    lines[#lines + 1] = scene.run_line(r) .. (r.ok and string.format("  lowest z %s", scene.fmt(r.lowest)) or "")
  end
end

-- |E_bend - E_bend(ref)| / E_bend(ref) over time, for every condition run against the exact
-- one (same h, so the same times while both run). Not drawn, and said so under the panel: the
-- force model (its "bend energy" is a work potential, another quantity) and a run whose bend
-- energy equals the reference's at every step (bridson: another exact gradient of the same
-- angle; on a log axis the difference 0 has no point)
local function relative_bend(ref)
  local series, equal, other = {}, {}, {}
  for k, r in ipairs(done) do   -- line colour k: the same colour as in the other panels
    if r.label == "bridson-force" then
      other[#other + 1] = r.label
    elseif r ~= ref then
      local x, y = {}, {}
      for i = 2, math.min(#r.t, #ref.t) do
        local e0 = ref.bend[i]
        if e0 > 0 and r.bend[i] == r.bend[i] and r.bend[i] ~= e0 then
          x[#x + 1], y[#y + 1] = r.t[i], math.abs(r.bend[i] - e0) / e0
        end
      end
      if #x > 0 then
        series[#series + 1] = {title = r.label .. (r.ok and "" or " (blew up)"), x = x, y = y, with = scene.line(k)}
      else
        equal[#equal + 1] = r.label
      end
    end
  end
  if #series == 0 then return nil end
  local absent = {}
  if #equal > 0 then absent[#absent + 1] = table.concat(equal, ", ") .. " (equal to it at every step)" end
  if #other > 0 then absent[#absent + 1] = table.concat(other, ", ") .. " (a force model: no such energy)" end
  return {title = "bend energy relative to " .. ref.label,
    xlabel = "t (s)" .. (#absent > 0 and ("\nnot drawn: " .. table.concat(absent, ",\n")) or ""),
    ylabel = "|E - E_{exact}| / E_{exact}", logy = true, series = series}
end

-- the plotting window of the side profiles: every finite point of every run, with a margin
local function window(runs_with_shots)
  local x0, x1, z0, z1 = math.huge, -math.huge, math.huge, -math.huge
  for _, r in ipairs(runs_with_shots) do
    for _, s in ipairs(r.shots) do
      for i = 1, #s.x do
        if scene.finite(s.x[i]) and scene.finite(s.z[i]) and math.abs(s.z[i]) < 10 then
          x0, x1, z0, z1 = math.min(x0, s.x[i]), math.max(x1, s.x[i]), math.min(z0, s.z[i]), math.max(z1, s.z[i])
        end
      end
    end
  end
  if x0 > x1 then return {-1, 1}, {-1, 1} end
  local m = 0.05 * math.max(x1 - x0, z1 - z0, 1e-3)
  return {x0 - m, x1 + m}, {z0 - m, z1 + m}
end

-- animated GIFs of the side profiles: one per run and one with every run
local function animations()
  local with = {}
  for _, r in ipairs(done) do if #r.shots > 1 then with[#with + 1] = r end end
  if #with == 0 then return end
  local xr, zr = window(with)
  local what = o.scene == "strip" and "the strip's middle row" or "the cloth's middle row"
  for _, r in ipairs(with) do
    local frames = {}
    for _, s in ipairs(r.shots) do
      frames[#frames + 1] = {title = string.format("%s: %s at t = %.2f s", r.label, what, s.t), xlabel = "x (m)",
        ylabel = "z (m)", xrange = xr, yrange = zr, key = "bottom left",
        series = {{title = r.label, x = s.x, y = s.z, with = "linespoints pt 7 ps 0.5"}}}
    end
    local ok, msg = cc.plot_animation{dir = o.dir, name = "anim_" .. r.label, frames = frames}
    if ok == nil then error(msg, 0) end
  end
  local frames = {}
  for f = 1, #with[1].shots do
    local series = {}
    for _, r in ipairs(with) do
      local s = r.shots[math.min(f, #r.shots)]   -- a run that blew up stays at its last frame
      series[#series + 1] = {title = r.label .. (r.shots[f] and "" or " (stopped)"), x = s.x, y = s.z}
    end
    frames[#frames + 1] = {title = string.format("bend formulations: %s at t = %.2f s", what, with[1].shots[f].t),
      xlabel = "x (m)", ylabel = "z (m)", xrange = xr, yrange = zr, key = "bottom left", series = series}
  end
  local ok, msg = cc.plot_animation{dir = o.dir, name = "profiles", frames = frames, width = 800, height = 560}
  if ok == nil then error(msg, 0) end
end

-- shape_<label>.png: every run's final shape on one z scale (of the runs that finished), so
-- that shapes that differ look different
local zlo, zhi = math.huge, -math.huge
for _, r in ipairs(done) do
  for k = 3, r.ok and #r.positions or 0, 3 do zlo, zhi = math.min(zlo, r.positions[k]), math.max(zhi, r.positions[k]) end
end
local zrange = zlo < zhi and {zlo - 0.02 * (zhi - zlo), zhi + 0.02 * (zhi - zlo)} or nil
for _, r in ipairs(done) do
  scene.surface(o.dir, "shape_" .. r.label, r.positions, r.nu,
    string.format("%s at t = %.2f s%s", r.label, r.t[#r.t], r.ok and "" or " (blew up)"), nil, zrange)
end

if #done > 0 then
  local prof = {}
  for k, r in ipairs(done) do
    prof[#prof + 1] = {title = r.label .. (r.ok and "" or " (blew up)"), x = r.profile_x, y = r.profile_z,
      with = scene.line(k)}
  end
  local shots = {}
  for _, r in ipairs(done) do shots[#shots + 1] = {shots = {{x = r.profile_x, z = r.profile_z}}} end
  local _, zr = window(shots)
  local extra = {}
  local exact
  for _, r in ipairs(done) do if r.label == "pritchard-exact" and r.ok then exact = r end end
  extra[#extra + 1] = exact and relative_bend(exact) or nil
  extra[#extra + 1] = {title = "final shape, middle row", xlabel = "x (m)", ylabel = "z (m)", yrange = zr,
    series = prof}
  local where = o.scene == "strip" and string.format("cantilever strip %dx%d", o.n, math.max(1, o.n // 5))
    or string.format("tablecloth %dx%d", o.n, o.n)
  scene.plot_runs(o.dir, "compare",
    string.format("bend formulations, %s, h = %s, k-bend = %s%s", where, scene.fmt(o.h), scene.fmt(o.k_bend),
      (o.psd_project and ", element stiffness projected to PSD" or "") ..
      ((o.stretch_hessian ~= "full" or o.shear_hessian ~= "full") and
        string.format(", stretch %s, shear %s", o.stretch_hessian, o.shear_hessian) or "")),
    done, {"bend", "stretch", "kinetic", "cg", "ms"}, extra)
  animations()
end
for _, r in ipairs(done) do
  if r.ok then lines[#lines + 1] = string.format("%-22s end of the middle row at z = %s m", r.label, scene.fmt(r.tip)) end
end
lines[#lines + 1] = string.format("%d configurations in %.1f s wall; outputs in %s", #variants,
  cc.wall_time() - t_start, o.dir)

-- What a student should see in these numbers, worked out from them.
local byrun = {}
for _, r in ipairs(done) do byrun[r.label] = r end
local function tip(labels)   -- the mean end z of the runs named, nil unless all ran to the end
  local sum = 0
  for _, l in ipairs(labels) do
    if not (byrun[l] and byrun[l].ok) then return nil end
    sum = sum + byrun[l].tip
  end
  return sum / #labels
end
lines[#lines + 1] = "What to see. Energies are in J; total includes gravity's potential m g z, 0 at the start,"
lines[#lines + 1] = "  so a cloth that has fallen has a negative total."
local angle, weighted = tip{"pritchard", "pritchard-exact", "bridson"}, tip{"discrete-shells", "quadratic"}
local force = tip{"bridson-force"}
if o.scene == "strip" and angle and weighted and force then
  lines[#lines + 1] = string.format("  Three families: the unweighted angle (pritchard, pritchard-exact, bridson) ends at z = %.3f m,",
    angle)
  lines[#lines + 1] = string.format("  Discrete Shells and quadratic (weighted 3|e|^2/A: stiffer) at %.3f m, Bridson's force model at %.3f m.",
    weighted, force)
end
local climbs = 0
for _, r in ipairs(done) do
  local e0, e1 = r.total[1], r.total[#r.total]
  if r.ok and e1 - e0 > 1e-9 then
    climbs = climbs + 1
    lines[#lines + 1] = string.format("  %s's total energy climbs from %.3f to %+.3f J where damping can only take energy away:",
      r.label, math.abs(e0) < 5e-4 and 0 or e0, e1)
    lines[#lines + 1] = "  its forces are wrong" .. (r.label == "bridson-force" and "." or
      " (clothcheck derive bend --variant " .. r.label .. " shows the step where its formulas go wrong).")
  end
end
if climbs == 0 then
  lines[#lines + 1] = "  No formulation's total energy climbs in this run: damping takes energy away from each."
end
scene.summary(string.format("bend_compare: %s, %d patches, h = %s, T = %s s%s", o.scene, o.n, scene.fmt(o.h), o.T,
  (o.stretch_hessian ~= "full" or o.shear_hessian ~= "full") and
    string.format(", stretch_hessian %s, shear_hessian %s", o.stretch_hessian, o.shear_hessian) or ""), lines)

local byname = {}
for _, r in ipairs(runs) do byname[r.label] = r end
return {runs = runs, by = byname, wall = cc.wall_time() - t_start, scene = o.scene, summary = lines}
