-- Lua-level test: every scenario in lua/scenarios/ runs in its --quick mode into a temporary
-- directory; the files it promises exist and the numbers it returns make sense.
local cc = require "clothcheck"

-- the repository from this script's own path (ctest runs it from the build directory)
local root = arg[0]:match("^(.*)/tests/[^/]*$") or "."
local scenarios = root .. "/lua/scenarios/"
package.path = scenarios .. "?.lua;" .. package.path
local scene = require "scene"

-- outputs go into the script's output folder (out/lua_scenarios under the build directory;
-- out/ is ignored by git), replaced on every run
local tmp = cc.outdir()
assert(cc.mkdir(tmp))

-- does this machine make PNGs? (without gnuplot the .dat and .gp are still written)
local png = cc.plot{dir = tmp, name = "probe", series = {{x = {0, 1}, y = {0, 1}}}} == true

local function exists(path)
  local f = io.open(path)
  if f then f:close() end
  return f ~= nil
end
local function plot_made(dir, name)
  assert(exists(dir .. "/" .. name .. ".dat"), dir .. "/" .. name .. ".dat missing")
  assert(exists(dir .. "/" .. name .. ".gp"), dir .. "/" .. name .. ".gp missing")
  if png then assert(exists(dir .. "/" .. name .. ".png"), dir .. "/" .. name .. ".png missing") end
end
local function finite(x) return type(x) == "number" and x == x and x > -math.huge and x < math.huge end
local function finite_energies(e)
  for _, k in ipairs{"stretch", "shear", "bend", "kinetic", "gravity", "total"} do
    assert(finite(e[k]), k .. " energy is not finite")
  end
  assert(e.stretch >= 0 and e.shear >= 0 and e.bend >= 0 and e.kinetic >= 0)
end
-- a run that either finished with finite energies or recorded its failure with a message
local function sane(r)
  if r.ok then finite_energies(r.final) else assert(type(r.msg) == "string" and #r.msg > 0 and r.fail_time) end
  assert(exists(r.dir .. "/energies.csv"), r.dir .. "/energies.csv missing")
end

local function run(name, ...)
  local dir = tmp .. "/" .. name
  arg = {[0] = scenarios .. name .. ".lua", "--quick", "--out", dir, ...}
  local chunk = assert(loadfile(arg[0]))
  local t0 = cc.wall_time()
  local result = chunk()
  io.stderr:write(string.format("lua_scenarios: %s --quick in %.2f s\n", name, cc.wall_time() - t0))
  return result, dir
end

-- hanging, with the energy picture
local r, dir = run("hanging", "--picture", "3")
local ok_run = r.runs[#r.runs]
assert(r.ok and ok_run.ok, "the quick hanging cloth survives at its last step size")
finite_energies(r.final)
assert(r.sag > 0.1 and r.sag < 1.5, "the free edge falls but the cloth holds")
assert(r.frames >= 2 and exists(ok_run.dir .. "/frame_0000.obj") and exists(ok_run.dir .. "/frame_0001.obj"))
assert(#ok_run.picture.files == 4, "3 picture frames plus the start")
for k = 0, 3 do plot_made(ok_run.dir, string.format("picture_%04d", k)) end
plot_made(ok_run.dir, "surface")
plot_made(dir, "energies")
plot_made(dir, "final")
local f = assert(io.open(ok_run.dir .. "/energies.csv"))
assert(f:read("l") == "t,stretch,shear,bend,kinetic,gravity,total,cg_iterations,ms")
f:close()

-- drape
r, dir = run("drape")
assert(r.ok)
finite_energies(r.final)
assert(r.on_table > 0 and r.drop > 0, "part of the cloth rests on the table, part hangs over")
assert(r.cg_per_step > 0 and r.ms_per_step > 0)
plot_made(dir, "energies")

-- bend_compare: the exact formulations agree; Bridson's force model runs beside them; the
-- cantilever shows the weighted models (Discrete Shells, quadratic) apart from the unweighted angle
local ALL = {"pritchard", "pritchard-exact", "macri", "bridson", "bridson-force", "discrete-shells", "quadratic"}
r, dir = run("bend_compare")
assert(r.scene == "strip")
-- the scenes ask for "auto" unless told otherwise: on the strip the blocks take more than 20
-- iterations a solve and the multigrid takes over within the first steps
local strip = scene.strip(30, 6, {preset = "pritchard-table1"})
assert(strip:params().precond == "auto")
for _ = 1, 10 do assert(strip:step()) end
local from = strip:stats().multigrid_from
assert(from >= 1 and from <= 9, "the multigrid takes the strip over at step " .. from)
-- a small tablecloth: the blocks converge within 20 a step and keep it
local cloth = scene.tablecloth(8, {preset = "thesis-table3.1"})
for _ = 1, 40 do assert(cloth:step()) end
local cs = cloth:stats()
assert(cs.multigrid_from == 0 and cs.cg_iterations <= 20 * cs.steps, "the blocks keep the small tablecloth")
assert(scene.strip(10, 2, {precond = "block-ic0"}):params().precond == "block-ic0")
for _, v in ipairs(ALL) do
  assert(r.by[v] and not r.by[v].rejected, v .. " must be accepted by the simulator")
  sane(r.by[v])
  plot_made(dir, "shape_" .. v)
  if png then assert(exists(dir .. "/anim_" .. v .. ".gif"), "anim_" .. v .. ".gif missing") end
end
if png then assert(exists(dir .. "/profiles.gif"), "profiles.gif missing") end
for _, v in ipairs(ALL) do if v ~= "macri" then assert(r.by[v].ok, v .. " is stable") end end
local a, b = r.by["pritchard-exact"].final, r.by.bridson.final
assert(math.abs(a.bend - b.bend) <= 1e-3 * math.abs(a.bend), "two exact gradients, one cantilever")
local ds, q, th = r.by["discrete-shells"].tip, r.by.quadratic.tip, r.by["pritchard-exact"].tip
assert(math.abs(ds - q) <= 0.02 * math.abs(ds), "Discrete Shells and the quadratic model agree: " .. ds .. " vs " .. q)
assert(math.abs(ds) < 0.7 * math.abs(th), "the weighted models sag visibly less: " .. ds .. " vs " .. th)
-- the force model's bend energy is its work potential: positive, and (w = 1/2 or 1 on the
-- grid, sin(theta/2) ~ theta/2) between a quarter and a half of the condition's k/2 theta^2
local bf = r.by["bridson-force"].final.bend
assert(bf > 0.1 * b.bend and bf < 0.8 * b.bend, "bridson-force bend energy " .. bf .. " vs condition " .. b.bend)
plot_made(dir, "compare")
-- the figure: one legend panel for all runs; the relative-energy panel says which runs it leaves
-- out and why; every shape_*.png on one z scale
local cgp = assert(io.open(dir .. "/compare.gp")):read("a")
assert(cgp:find("plot NaN with lines lt 1 title 'pritchard'", 1, true), "compare.png has a legend panel")
assert(cgp:find("not drawn: bridson (equal to it at every step)", 1, true), "relative panel: bridson left out, said why")
assert(cgp:find("bridson-force (a force model: no such energy)", 1, true), "relative panel: bridson-force left out, said why")
local zrange
for _, v in ipairs(ALL) do
  local z = assert(io.open(dir .. "/shape_" .. v .. ".gp")):read("a"):match("set zrange %[[^\n]*%]")
  assert(z and (zrange == nil or z == zrange), "shape_" .. v .. ": " .. tostring(z) .. " vs " .. tostring(zrange))
  zrange = z
end
-- the printed summary says what to see: the energies' unit, gravity in the total, the families,
-- and of each formulation whose total energy climbs, that its forces are wrong
local said = table.concat(r.summary, "\n")
assert(said:find("Energies are in J; total includes gravity's potential", 1, true), said)
assert(said:find("Three families: the unweighted angle (pritchard, pritchard-exact, bridson) ends at z = ", 1, true), said)
local climbs = r.by.macri.ok and r.by.macri.total[#r.by.macri.total] > r.by.macri.total[1] + 1e-9
assert(not climbs or said:find("macri's total energy climbs", 1, true), said)
assert(said:find("total energy climbs", 1, true), said)   -- one that climbs, or "No formulation's ... climbs"
-- Table 3.1's tablecloth: every formulation runs
r = run("bend_compare", "--tablecloth")
assert(r.scene == "tablecloth")
for _, v in ipairs(ALL) do assert(r.by[v] and r.by[v].ok, v .. " runs the tablecloth") end
-- the same with stretch clamp and shear Gauss-Newton (sim.h, cc_hessian_mode): every formulation
-- runs; a mode that is not one of the four words is an error before anything runs
r = run("bend_compare", "--stretch_hessian", "clamp", "--shear_hessian", "gauss-newton")
for _, v in ipairs(ALL) do
  assert(r.by[v] and r.by[v].ok, v .. " runs with stretch clamp, shear gauss-newton")
  finite_energies(r.by[v].final)
end
local bad_ok, bad_msg = pcall(run, "bend_compare", "--stretch_hessian", "exact")
assert(not bad_ok and tostring(bad_msg):find("stretch_hessian must be"), tostring(bad_msg))

-- bend_refinement: refined along the length, the unweighted angle's sag grows with n (more
-- than doubles from 10 to 20 patches); Discrete Shells' grows far less; uniformly, Discrete
-- Shells and the quadratic model agree
r, dir = run("bend_refinement")
local len, uni = r.results.length, r.results.uniform
assert(#len.n == 2 and #uni.n == 2 and len.n[1] == 10 and len.n[2] == 20)
for _, res in ipairs{len, uni} do
  for _, f in ipairs(r.formulations) do
    for i = 1, 2 do assert(finite(res.tip[f.label][i]) and res.tip[f.label][i] < 0, f.label .. " sags") end
  end
end
local grow_angle = len.tip["pritchard-exact"][2] / len.tip["pritchard-exact"][1]
local grow_ds = len.tip["discrete-shells"][2] / len.tip["discrete-shells"][1]
assert(grow_angle > 2 and grow_ds < 1.6, "along the length: angle x" .. grow_angle .. ", Discrete Shells x" .. grow_ds)
for i = 1, 2 do
  local a, b = uni.tip["discrete-shells"][i], uni.tip.quadratic[i]
  assert(math.abs(a - b) <= 0.01 * math.abs(a), "Discrete Shells and quadratic agree on a uniform mesh")
end
plot_made(dir, "bend_refinement")
assert(exists(dir .. "/bend_refinement_length.csv") and exists(dir .. "/bend_refinement_uniform.csv"))

-- scale_invariance: on the coarsest grid every power is the same simulation
r, dir = run("scale_invariance")
assert(#r.results == 3)
for _, res in ipairs(r.results) do
  for i = 1, #res.n do assert(res.ok[i] and finite(res.sag[i]) and finite(res.total[i])) end
  assert(math.abs(res.sag[1] - r.results[1].sag[1]) < 1e-9, "stiffness matched on the coarsest grid")
end
plot_made(dir, "scale_invariance")
assert(exists(dir .. "/scale_invariance.csv"))

-- the sweeps
r, dir = run("timestep")
assert(#r.runs == 2)
for _, x in ipairs(r.runs) do sane(x) end
assert(r.runs[1].ok, "h = 5 ms survives the first 60 ms")
plot_made(dir, "energies_h")
assert(#scene.solver_lines() == 0, "no solver lines without --solver")
-- --solver: a line per simulation with its counters, then the most iterations a step
r = run("timestep", "--solver")
local solver, most = scene.solver_lines()
assert(#solver == #r.runs + 1, #solver .. " solver lines")
for k = 1, #r.runs do
  local it = solver[k]:match(", auto: %d+ steps, ([%d.]+) MPCG iterations a step, %d+ solved again projected, the ")
  assert(it and tonumber(it) <= most + 0.05 and math.abs(tonumber(it) - r.runs[k].cg_per_step) < 0.05, solver[k])
end
assert(solver[#solver] == string.format("at most %.1f MPCG iterations a step", most), solver[#solver])
r, dir = run("stiffness")
for _, p in ipairs{"k_stretch", "k_shear", "k_bend"} do
  assert(#r.sweeps[p] == 2)
  for _, x in ipairs(r.sweeps[p]) do sane(x) end
  plot_made(dir, "energies_" .. p)
end
r, dir = run("damping")
for _, p in ipairs{"d_stretch", "d_shear", "d_bend"} do
  assert(#r.sweeps[p] == 2)
  for _, x in ipairs(r.sweeps[p]) do sane(x) end
  plot_made(dir, "energies_" .. p)
end

-- damping_chain_rule: the summed Cdot lets a free cloth fall exactly as backward Euler does
r, dir = run("damping_chain_rule")
local s, p = r.fall.summed, r.fall["per-particle"]
assert(s.ok and math.abs(s.drop / s.exact - 1) < 1e-6, "summed Cdot: no damping of a rigid fall")
assert(p.drop < s.drop * 0.999, "per-particle Cdot damps the fall itself")
assert(#r.hanging == 4)
plot_made(dir, "free_fall")

-- explicit_vs_implicit
r, dir = run("explicit_vs_implicit")
local be, ee = r["backward-euler"].largest, r["explicit-euler"].largest
assert(be and be >= 0.01, "backward Euler survives Table 1's step sizes")
assert(not ee or ee < be, "explicit Euler needs smaller steps")
plot_made(dir, "survival")

-- strain_limit
r, dir = run("strain_limit")
for _, m in ipairs{"none", "provot", "bridson"} do
  assert(r[m] and finite(r[m].worst) and r[m].worst > 0)
  assert(exists(dir .. "/" .. m .. "/strain.csv"))
end
assert(r.none.ok)
plot_made(dir, "compare")

-- macri_error: the exact variants agree everywhere, Macri's does not
r, dir = run("macri_error")
assert(r.sign_ok, "theta = +t for the hinge of the scenario")
assert(r.variants["pritchard-exact"].worst_gradient == 0)
assert(r.variants.bridson.worst_gradient < 1e-12)
assert(r.variants.macri.worst_gradient > 0.5 and r.variants.macri.worst_value > 3)
for _, j in ipairs(r.jumps) do assert(j > 1, "Macri's gradient jumps where it switches formula") end
plot_made(dir, "macri_error")
assert(exists(dir .. "/sweep.csv"))

-- --help: the script's description, every option with its default, what --quick sets
local text = scene.usage("bend_compare", scenarios .. "bend_compare.lua",
  {name = "bend_compare", n = 33, psd_project = false, out = "out/bend_compare", quick = false},
  {quick = {n = 8}})
assert(text:find("usage: clothcheck run lua/scenarios/bend_compare.lua [--quick] [options]", 1, true), text)
assert(text:find("every bend formulation on the same bending-dominated scene", 1, true), "the header comment is shown")
assert(text:find("--n              [33]", 1, true) and text:find("--psd_project    [off]  (a flag)", 1, true), text)
assert(text:find("--quick          sets n = 8", 1, true), text)

print("lua_scenarios: all assertions passed (outputs in " .. tmp .. ")")
