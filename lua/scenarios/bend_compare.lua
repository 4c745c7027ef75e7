-- bend_compare.lua — one tablecloth drape per bend formulation, side by side.
-- Shows: what the choice of bend derivative does to a simulation: Pritchard's
-- constant-magnitude approximation (24)-(57), the exact appendix form (A.8)-(A.13),
-- Macri's switched formulas (001 5.1, wrong on purpose), Bridson's dihedral angle as a
-- condition, and Bridson's bending force model (bend_condition = "bridson-force",
-- src/sim/assembly/bend_force.c; its bend energy is a work potential, not an energy). For each:
-- energies over time, MPCG iterations and ms per step, the final shape; one figure with
-- everything side by side (compare.png) and a surface per variant (shape_<label>.png).
-- The configurations are data: add a formulation as one line in `variants` below.
-- Every variant runs with the same fixed step h, so a blow-up is the variant's own result.
-- Level: intermediate. This is `make demo`'s main job: the default (33x33, 1.2 s) takes
-- well under two minutes on two cores; --full runs 003's 66x66 for 2.4 s with h = 1 ms
-- (at 66x66 the steps 2.5 ms and 5 ms blow up for most formulations: docs/scenarios.md).
--
--   clothcheck run lua/scenarios/bend_compare.lua [--quick | --full] [--n 33] [--T 1.2]
--                  [--h 0.0025] [--k_bend 1e-5] [--psd_project] [--frames 40]
--                  [--stretch_hessian MODE] [--shear_hessian MODE] [--picture [N]] [--out DIR]
-- --psd_project projects every element stiffness to PSD before assembly (all variants).
-- --stretch_hessian, --shear_hessian: full (default), clamp, gauss-newton or project, how that
-- term's C d2C enters the system matrix (sim.h, cc_hessian_mode); with stretch clamp and shear
-- gauss-newton the system matrix stays positive definite (docs/scenarios.md, docs/performance.md).
local cc = require "clothcheck"
local scene = require "scene"

local variants = {
  {label = "pritchard",       params = {bend_variant = "pritchard"}},
  {label = "pritchard-exact", params = {bend_variant = "pritchard-exact"}},
  {label = "macri",           params = {bend_variant = "macri"}},
  {label = "bridson",         params = {bend_variant = "bridson"}},
  {label = "bridson-force",   params = {bend_condition = "bridson-force"}},
}

local o = scene.options("bend_compare", arg, {n = 33, T = 1.2, h = 0.0025, k_bend = 1e-5, psd_project = false, frames = 40,
  stretch_hessian = "full", shear_hessian = "full"},
  {quick = {n = 8, T = 0.1, frames = 10}, full = {n = 66, T = 2.4, h = 0.001}})

for _, key in ipairs({"stretch_hessian", "shear_hessian"}) do
  local ok = {full = true, clamp = true, ["gauss-newton"] = true, project = true}
  if not ok[o[key]] then
    error(string.format("bend_compare: --%s must be full, clamp, gauss-newton or project (got '%s')", key, tostring(o[key])), 0)
  end
end

local runs, done, lines = {}, {}, {}
local t_start = cc.wall_time()
for _, v in ipairs(variants) do
  local params = {preset = "thesis-table3.1", h = o.h, k_bend = o.k_bend, psd_project = o.psd_project,
    stretch_hessian = o.stretch_hessian, shear_hessian = o.shear_hessian}
  for k, x in pairs(v.params) do params[k] = x end
  local made, sim, mesh, nu = pcall(scene.tablecloth, o.n, params)
  if not made then
    -- the simulator does not accept this configuration (yet): a result, reported as such
    local why = tostring(sim):gsub("^[^:]*:%d+: ", "")
    runs[#runs + 1] = {label = v.label, rejected = why, ok = false}
    lines[#lines + 1] = string.format("%-22s REJECTED by cc.sim: %s", v.label, why)
  else
    local r = scene.run(sim, mesh, nu, {dir = o.dir, label = v.label, T = o.T, frames = o.frames,
      picture = o.picture, progress = "bend " .. v.label})
    r.lowest = scene.lowest(r.positions)
    -- the middle row of the cloth (y = 0) as a profile z(x)
    local j = (nu - 1) // 2
    r.profile_x, r.profile_z = {}, {}
    for i = 0, nu - 1 do
      local k = scene.vertex(nu, i, j)
      r.profile_x[#r.profile_x + 1] = r.positions[3 * k - 2]
      r.profile_z[#r.profile_z + 1] = r.positions[3 * k]
    end
    scene.surface(o.dir, "shape_" .. v.label, sim, nu,
      string.format("%s at t = %.2f s%s", v.label, sim.time, r.ok and "" or " (blew up)"))
    runs[#runs + 1] = r
    done[#done + 1] = r
    lines[#lines + 1] = scene.run_line(r) .. (r.ok and string.format("  lowest z %s", scene.fmt(r.lowest)) or "")
  end
end

-- |E_bend - E_bend(ref)| / E_bend(ref) over time, for every condition run against the exact
-- one (same h, so the same times while both run); the force model has another energy
local function relative_bend(ref)
  local series = {}
  for k, r in ipairs(done) do   -- line colour k: the same colour as in the other panels
    if r ~= ref and r.label ~= "bridson-force" then
      local x, y = {}, {}
      for i = 2, math.min(#r.t, #ref.t) do
        local e0 = ref.bend[i]
        if e0 > 0 and r.bend[i] == r.bend[i] and r.bend[i] ~= e0 then
          x[#x + 1], y[#y + 1] = r.t[i], math.abs(r.bend[i] - e0) / e0
        end
      end
      if #x > 0 then
        series[#series + 1] = {title = r.label .. (r.ok and "" or " (blew up)"), x = x, y = y, with = "lines lt " .. k}
      end
    end
  end
  if #series == 0 then return nil end
  return {title = "bend energy relative to " .. ref.label, xlabel = "t (s)", ylabel = "|E - E_{exact}| / E_{exact}",
    logy = true, key = "bottom right", series = series}
end

if #done > 0 then
  local profile, low = {}, 0
  for _, r in ipairs(done) do
    profile[#profile + 1] = {title = r.label .. (r.ok and "" or " (blew up)"), x = r.profile_x, y = r.profile_z}
    for _, z in ipairs(r.profile_z) do if z == z and z < low and z > -10 then low = z end end
  end
  local extra = {}
  local exact
  for _, r in ipairs(done) do if r.label == "pritchard-exact" and r.ok then exact = r end end
  extra[#extra + 1] = exact and relative_bend(exact) or nil
  extra[#extra + 1] = {title = "final shape, middle row (y = 0)", xlabel = "x (m)", ylabel = "z (m)",
    key = "bottom center", yrange = {low - 0.05, 0.05}, series = profile}
  scene.plot_runs(o.dir, "compare",
    string.format("bend formulations, tablecloth %dx%d, h = %s, k-bend = %s%s (others Table 3.1)", o.n, o.n,
      scene.fmt(o.h), scene.fmt(o.k_bend), (o.psd_project and ", element stiffness projected to PSD" or "") ..
      ((o.stretch_hessian ~= "full" or o.shear_hessian ~= "full") and
        string.format(", stretch %s, shear %s", o.stretch_hessian, o.shear_hessian) or "")),
    done, {"bend", "stretch", "kinetic", "cg", "ms"}, extra)
end
lines[#lines + 1] = string.format("%d configurations in %.1f s wall; outputs in %s", #variants,
  cc.wall_time() - t_start, o.dir)
scene.summary(string.format("bend_compare: %dx%d patches, h = %s, T = %s s%s", o.n, o.n, scene.fmt(o.h), o.T,
  (o.stretch_hessian ~= "full" or o.shear_hessian ~= "full") and
    string.format(", stretch_hessian %s, shear_hessian %s", o.stretch_hessian, o.shear_hessian) or ""), lines)

local byname = {}
for _, r in ipairs(runs) do byname[r.label] = r end
return {runs = runs, by = byname, wall = cc.wall_time() - t_start}
