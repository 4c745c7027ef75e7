-- scene.lua: what every scenario in lua/scenarios/ shares, so no scenario repeats it.
--
--   local scene = require "scene"
--   local o = scene.options("hanging", arg, {n = 20, T = 2}, {quick = {n = 8, T = 0.3}})
--        parses --quick, --out DIR, --frames K, --picture [N], --solver and --NAME VALUE
--        for every default given; o.dir is the output directory (clothcheck.outdir(), out/NAME by
--        default, unless --out names a folder inside it), created
--   local mesh, nu = scene.cloth(n, side, z)        a square grid of n x n patches
--   local sim, mesh, nu = scene.hanging(n, params)  001's cloth pinned at two corners
--   local sim, mesh, nu = scene.tablecloth(n, params)  003's cloth over a round table
--   local sim, mesh, nu, row = scene.strip(nx, ny, params)  a clamped 0.5 m x 0.1 m cantilever
--   local run = scene.run(sim, mesh, nu, {dir=, label=, T=, frames=, picture=})
--        steps to time T; records energies, MPCG iterations and ms per step, writes
--        o.dir/LABEL/energies.csv, OBJ frames and (with picture) the R/G/B energy picture;
--        a failed step (blow-up, NaN) ends the run and is recorded in run.ok, run.msg
--   scene.run_halving(make, h, h_min, spec)         run again with h/2 after a blow-up
--   scene.sweep(o, param, values, T, base)          one of 003's parameter sweeps
--   scene.picture_recorder(mesh, nu)                the energy picture (003 Fig 3.1)
--   scene.plot_runs(o.dir, name, title, runs)       energies over time, one series per run
--   scene.surface(dir, name, sim, nu, title)        the cloth as a shaded surface (pm3d)
--   scene.line(k)                                   the line style of run k in plot_runs
--   scene.summary(title, lines)                     the scenario's findings on stdout (with
--        --solver, then each simulation's solver counters: scene.solver_lines())
--
-- Run a scenario with `clothcheck run lua/scenarios/NAME.lua [--quick] [options]`; each
-- returns a table of its measured numbers, which tests/lua_scenarios.lua checks.
local cc = require "clothcheck"

local scene = {}

-- Options ------------------------------------------------------------------------------

-- "1e-3" -> 1e-3, "true" -> true, anything else stays text
local function convert(text, like)
  if type(like) == "number" then
    local v = tonumber(text)
    if not v then error("option expects a number, got '" .. tostring(text) .. "'", 0) end
    return v
  end
  if type(like) == "boolean" then return text ~= "false" and text ~= "0" end
  return text
end

-- the script's leading comment block (its description), without the "-- " marks
local function header(script)
  local f = script and io.open(script, "r")
  if not f then return "" end
  local lines = {}
  for line in f:lines() do
    local text = line:match("^%-%-%s?(.*)$")
    if not text then break end
    lines[#lines + 1] = "  " .. text
  end
  f:close()
  return table.concat(lines, "\n") .. (#lines > 0 and "\n\n" or "")
end

-- The --help text: usage, the script's description, every option with its default, and
-- what each mode (--quick, --full) sets.
function scene.usage(name, script, o, modes)
  local names, out = {}, {}
  for k in pairs(o) do if k ~= "name" and not (modes or {})[k] then names[#names + 1] = k end end
  table.sort(names)
  local mode_names = {}
  for m in pairs(modes or {}) do mode_names[#mode_names + 1] = m end
  table.sort(mode_names)
  out[#out + 1] = "usage: clothcheck run lua/scenarios/" .. name .. ".lua"
    .. (#mode_names > 0 and " [--" .. table.concat(mode_names, " | --") .. "]" or "") .. " [options]\n\n"
  out[#out + 1] = header(script)
  out[#out + 1] = "options (default in brackets):\n"
  for _, k in ipairs(names) do
    local v = o[k]
    local shown = type(v) == "boolean" and (v and "on" or "off") or tostring(v)
    out[#out + 1] = string.format("  --%-14s [%s]%s\n", k, shown,
      type(v) == "boolean" and "  (a flag)" or k == "picture" and "  (--picture alone: 8 frames)" or "")
  end
  for _, m in ipairs(mode_names) do
    local set = {}
    for k, v in pairs(modes[m]) do set[#set + 1] = k .. " = " .. tostring(v) end
    table.sort(set)
    out[#out + 1] = string.format("  --%-14s sets %s\n", m, table.concat(set, ", "))
  end
  out[#out + 1] = "  --help           this text\n"
  return table.concat(out)
end

-- Parse argv (the script's arg table) against defaults. modes holds named option sets
-- (quick, full) that a flag --quick or --full switches on; options given explicitly win.
function scene.options(name, argv, defaults, modes)
  modes = modes or {}
  local o = {name = name, quick = false, out = cc.outdir(), frames = 0, picture = 0, solver = false}
  for mode in pairs(modes) do if o[mode] == nil then o[mode] = false end end
  for k, v in pairs(defaults) do o[k] = v end
  local given, i = {}, 1
  argv = argv or {}
  while argv[i] do
    local a = argv[i]
    local key, val = a:match("^%-%-([%w_]+)=(.*)$")
    if not key then key = a:match("^%-%-([%w_]+)$") end
    if not key then error(name .. ": unexpected argument '" .. a .. "' (options start with --)", 0) end
    if key == "help" then
      io.write(scene.usage(name, argv[0], o, modes))
      os.exit(0)
    elseif o[key] == nil then
      error(name .. ": unknown option --" .. key .. " (see --help)", 0)
    elseif type(o[key]) == "boolean" and val == nil then
      given[key] = true
    elseif key == "picture" and val == nil and not (argv[i + 1] and tonumber(argv[i + 1])) then
      given[key] = 8                     -- --picture alone: 8 frames over the run
    else
      if val == nil then i = i + 1; val = argv[i] end
      if val == nil then error(name .. ": option --" .. key .. " needs a value", 0) end
      given[key] = convert(val, o[key])
    end
    i = i + 1
  end
  for mode, set in pairs(modes) do
    if given[mode] then for k, v in pairs(set) do o[k] = v end end
  end
  for k, v in pairs(given) do o[k] = v end
  o.dir = o.out
  assert(cc.mkdir(o.dir))
  scene.tracked = o.solver and {} or nil
  return o
end

-- Geometry ------------------------------------------------------------------------------

-- A square cloth of n x n patches ((n+1)^2 vertices, regular split), side `side` metres,
-- centred on the z axis, flat at height z; rest (u,v) = its (x,y) before centring.
-- Vertex k = i + nu*j + 1 for column i, row j (0-based), the order plot_surface expects.
-- cc.sim with MPCG preconditioned "auto" unless params.precond says otherwise: the presets'
-- Ascher & Boxerman blocks (003's choice) while their solves take at most 20 iterations a step
-- on average and fewer than 60 in any one, the multigrid from then on. The blocks need 20 to
-- 35 MPCG iterations a step on the scenes here at 20 x 20 patches and more the finer the grid
-- (hundreds on the strip and on scale_invariance's 88 x 88 cloth), the multigrid 3 to 10; on
-- small cloths the blocks' iterations cost less than the multigrid's set-up
-- (docs/performance.md). With --solver every simulation made is kept for scene.solver_lines.
function scene.sim(mesh, params)
  local p = {precond = "auto"}
  for k, v in pairs(params or {}) do p[k] = v end
  local sim = cc.sim(mesh, p)
  if scene.tracked then scene.tracked[#scene.tracked + 1] = sim end
  return sim
end

function scene.cloth(n, side, z)
  local mesh = cc.grid(n + 1, n + 1, side, side)
  for k = 1, mesh.nv do
    local x, y = mesh:position(k)
    mesh:set_position(k, x - side / 2, y - side / 2, z or 0)
  end
  return mesh, n + 1
end

-- vertex number of column i, row j (0-based) in a grid with nu vertices per row
function scene.vertex(nu, i, j) return i + nu * j + 1 end

-- 003's tablecloth: a square cloth of side 1.6 m held 2 cm above a round table of radius
-- 0.5 m (top at z = 0, floor at z = -1). The thesis gives no dimensions; these are ours.
scene.table = {side = 1.6, radius = 0.5, top = 0, floor = -1, lift = 0.02}

function scene.tablecloth(n, params, lift)
  local t = scene.table
  local mesh, nu = scene.cloth(n, t.side, t.top + (lift or t.lift))
  local sim = scene.sim(mesh, params)
  sim:add_table(0, 0, t.top, t.floor, t.radius)
  return sim, mesh, nu
end

-- The cantilever of bend_compare and bend_refinement: a strip of Table 1 cloth 0.5 m x 0.1 m
-- of nx x ny patches, flat at z = 0, clamped along x = 0 (its first two columns of vertices
-- pinned: a clamp, not a hinge). Returns sim, mesh, nu and the row j through its middle.
-- (scene.sim: on this bending-dominated scene the presets' Ascher & Boxerman blocks reach
-- MPCG's cap of 1000 iterations a step from 80 x 16 on.)
scene.strip_size = {length = 0.5, width = 0.1}

function scene.strip(nx, ny, params)
  local mesh = cc.grid(nx + 1, ny + 1, scene.strip_size.length, scene.strip_size.width)
  local sim = scene.sim(mesh, params)
  for j = 0, ny do
    for i = 0, 1 do sim:pin(scene.vertex(nx + 1, i, j)) end
  end
  return sim, mesh, nx + 1, ny // 2
end

-- 001's hanging cloth: 1 m square, flat at z = 0, pinned at the two corners of the edge
-- y = -0.5; it falls and swings down. With vertical = true it starts hanging straight down
-- in the plane y = 0 instead (pinned edge at z = 0, the rest of the cloth below it, (u,v)
-- unchanged), so only the stretch under its weight moves it. Returns sim, mesh, nu.
function scene.hanging(n, params, vertical)
  local mesh, nu = scene.cloth(n, 1.0, 0)
  if vertical then
    for k = 1, mesh.nv do
      local x, y = mesh:position(k)
      mesh:set_position(k, x, 0, -(y + 0.5))
    end
  end
  local sim = scene.sim(mesh, params)
  sim:pin(scene.vertex(nu, 0, 0))
  sim:pin(scene.vertex(nu, nu - 1, 0))
  return sim, mesh, nu
end

-- Stepping -------------------------------------------------------------------------------

local TERMS = {"stretch", "shear", "bend", "kinetic", "gravity", "total"}
scene.terms = TERMS

local function finite(x) return x == x and x > -math.huge and x < math.huge end
scene.finite = finite

-- Step sim to time spec.T with sim:step(). Records after every step: t, the energies,
-- MPCG iterations and wall ms of the step. spec: label (subdirectory and name), dir (the
-- scenario's directory), T, frames (write an OBJ every k-th step; 0 none), picture (number
-- of energy-picture frames over the run; 0 none), progress (label shown; default label),
-- quiet (no CSV), adaptive (each step is sim:advance(h): adaptive sub-steps with the
-- stretch limit, 003), on_step (function(sim, step, nsteps) called after every step).
-- Returns run = {label, ok, msg, fail_time, steps, h, t={}, stretch={}, ..., cg={}, ms={},
-- ms_per_step, cg_per_step, wall, frames, final = energies, positions, dir, picture}.
function scene.run(sim, mesh, nu, spec)
  local label = spec.label or "run"
  local dir = spec.dir .. "/" .. label
  assert(cc.mkdir(dir))
  local h = sim:params().h
  local nsteps = math.max(1, math.floor(spec.T / h + 0.5))
  local run = {label = label, dir = dir, ok = true, steps = 0, h = h, t = {}, cg = {}, ms = {}}
  for _, k in ipairs(TERMS) do run[k] = {} end
  local rows = {}
  local frames = spec.frames or 0
  local picture = spec.picture or 0
  local pic_at = {}                       -- the steps that get a picture: N evenly spaced
  for k = 1, picture do pic_at[math.max(1, (k * nsteps + picture // 2) // picture)] = true end
  local pic = picture > 0 and scene.picture_recorder(mesh, nu) or nil
  local nframe = 0

  local function record(ms, cg)
    local e = sim:energies()
    local i = #run.t + 1
    run.t[i] = sim.time
    for _, k in ipairs(TERMS) do run[k][i] = e[k] end
    run.cg[i], run.ms[i] = cg, ms
    rows[i] = {sim.time, e.stretch, e.shear, e.bend, e.kinetic, e.gravity, e.total, cg, ms}
    return e
  end
  local function frame()
    if frames > 0 and run.steps % frames == 0 then
      assert(sim:write_obj(string.format("%s/frame_%04d.obj", dir, nframe)))
      nframe = nframe + 1
    end
  end

  record(0, 0)
  frame()
  if pic then pic:add(sim) end
  local t0 = cc.wall_time()
  for s = 1, nsteps do
    local ts = cc.wall_time()
    local ok, msg
    if spec.adaptive then ok, msg = sim:advance(h) else ok, msg = sim:step() end
    local ms = 1000 * (cc.wall_time() - ts)
    if not ok then
      run.ok, run.msg, run.fail_time = false, msg, sim.time
      break
    end
    run.steps = s
    local e = record(ms, sim:stats().last_cg_iterations)
    if not finite(e.total) then
      run.ok, run.msg, run.fail_time = false, "energy is not finite after the step", sim.time
      break
    end
    frame()
    if pic and pic_at[s] then pic:add(sim) end
    if spec.on_step then spec.on_step(sim, s, nsteps) end
    cc.progress(spec.progress or label, s, nsteps)
  end
  run.wall = cc.wall_time() - t0
  run.frames = nframe
  local msum, cgsum = 0, 0
  for i = 2, #run.ms do msum, cgsum = msum + run.ms[i], cgsum + run.cg[i] end
  run.ms_per_step = run.steps > 0 and msum / run.steps or 0
  run.cg_per_step = run.steps > 0 and cgsum / run.steps or 0
  run.final = {}
  for _, k in ipairs(TERMS) do run.final[k] = run[k][#run.t] end
  run.positions = sim:positions()
  if not spec.quiet then
    assert(cc.write_csv(dir .. "/energies.csv",
      {"t", "stretch", "shear", "bend", "kinetic", "gravity", "total", "cg_iterations", "ms"}, rows))
  end
  if pic then
    run.picture = pic:write(dir, label)
    scene.surface(dir, "surface", sim, nu, label .. " at t = " .. scene.fmt(sim.time) .. " s", pic.last_total)
  end
  return run
end

-- Run with step h; when a step blows up, record the failure and start again with h/2, down
-- to h_min. make(h) returns sim, mesh, nu. Returns the list of runs (each with .h) and the
-- last one with its sim, mesh, nu.
function scene.run_halving(make, h, h_min, spec)
  local runs = {}
  while true do
    local sim, mesh, nu = make(h)
    local s = {}
    for k, v in pairs(spec) do s[k] = v end
    s.label = (spec.label or "run") .. "-h" .. scene.fmt(h)
    local r = scene.run(sim, mesh, nu, s)
    r.title = "h = " .. scene.fmt(h)
    runs[#runs + 1] = r
    if r.ok or h / 2 < h_min then return runs, r, sim, mesh, nu end
    h = h / 2
  end
end

-- One of 003's parameter sweeps (Figs 3.3-3.9): the tablecloth of o.n patches run to time T
-- once per value of one parameter, everything else from base (a cc.sim parameter table).
-- Writes o.dir/PARAM-VALUE/ per run, energies_PARAM.png (energies over time, a series per
-- value) and shape_PARAM-VALUE.png (final surface). Returns the runs (run.value, run.lowest)
-- and summary lines.
function scene.sweep(o, param, values, T, base)
  local runs, lines = {}, {}
  for _, value in ipairs(values) do
    local params = {}
    for k, v in pairs(base) do params[k] = v end
    params[param] = value
    local sim, mesh, nu = scene.tablecloth(o.n, params)
    local label = param .. "-" .. scene.fmt(value)
    local r = scene.run(sim, mesh, nu, {dir = o.dir, label = label, T = T, frames = o.frames,
      picture = o.picture, progress = label})
    r.title, r.value, r.lowest = param .. " = " .. scene.fmt(value), value, scene.lowest(r.positions)
    scene.surface(o.dir, "shape_" .. label, sim, nu,
      string.format("%s, t = %.2f s%s", r.title:gsub("_", "-"), sim.time, r.ok and "" or " (blew up)"))
    runs[#runs + 1] = r
    lines[#lines + 1] = scene.run_line(r) .. (r.ok and ("  lowest z " .. scene.fmt(r.lowest)) or "")
  end
  scene.plot_runs(o.dir, "energies_" .. param,
    string.format("tablecloth %dx%d: %s sweep (others Table 3.1)%s", o.n, o.n, (param:gsub("_", "-")),
      param == "h" and "" or (", h = " .. scene.fmt(base.h or 0.005))), runs)
  return runs, lines
end

-- The energy picture (003 Fig 3.1) -----------------------------------------------------------

-- Per-vertex energy densities: a triangle's stretch and shear energy goes a third to each
-- corner, a hinge's bend energy half to each end of its shared edge (x1, x2); each vertex's
-- sum is divided by its lumped rest area (a third of each triangle's). The picture maps
-- log10 of stretch, shear and bend density to red, green and blue, each channel normalised
-- over the whole run: the largest value seen anywhere at any time is 1, and `decades`
-- decades below it is 0.
function scene.picture_recorder(mesh, nu, decades)
  local tri, hin, area = {}, {}, {}
  for v = 1, mesh.nv do area[v] = 0 end
  for t = 1, mesh.nt do
    local a, b, c = mesh:triangle(t)
    tri[t] = {a, b, c}
    local ua, va = mesh:uv(a)
    local ub, vb = mesh:uv(b)
    local uc, vc = mesh:uv(c)
    local at = math.abs((ub - ua) * (vc - va) - (uc - ua) * (vb - va)) / 2
    for _, v in ipairs(tri[t]) do area[v] = area[v] + at / 3 end
  end
  for h = 1, mesh.nh do
    local _, x1, x2 = mesh:hinge(h)
    hin[h] = {x1, x2}
  end
  local rec = {frames = {}, times = {}, nu = nu, nv = mesh.nv // nu, decades = decades or 6}

  local function density(values, elems, share)
    local d = {}
    for v = 1, mesh.nv do d[v] = 0 end
    for e, vs in ipairs(elems) do
      for _, v in ipairs(vs) do d[v] = d[v] + share * values[e] end
    end
    for v = 1, mesh.nv do d[v] = d[v] / area[v] end
    return d
  end

  function rec:add(sim)
    local f = {
      density(sim:element_energies("stretch"), tri, 1 / 3),
      density(sim:element_energies("shear"), tri, 1 / 3),
      density(sim:element_energies("bend"), hin, 1 / 2),
    }
    self.frames[#self.frames + 1] = f
    self.times[#self.times + 1] = sim.time
    local total = {}
    for v = 1, mesh.nv do
      local s = f[1][v] + f[2][v] + f[3][v]
      total[v] = s > 0 and math.log(s, 10) or -30
    end
    self.last_total = total
  end

  -- write picture_NNNN.png per frame; returns {files, hi = {r,g,b}, lo = {r,g,b}}
  function rec:write(dir, label)
    local hi, lo = {-math.huge, -math.huge, -math.huge}, {}
    for _, f in ipairs(self.frames) do
      for c = 1, 3 do
        for _, d in ipairs(f[c]) do
          if d > 0 and math.log(d, 10) > hi[c] then hi[c] = math.log(d, 10) end
        end
      end
    end
    for c = 1, 3 do
      if hi[c] == -math.huge then hi[c] = 0 end
      lo[c] = hi[c] - self.decades
    end
    local files = {}
    for k, f in ipairs(self.frames) do
      local ch = {}
      for c = 1, 3 do
        ch[c] = {}
        for v, d in ipairs(f[c]) do
          ch[c][v] = d > 0 and (math.log(d, 10) - lo[c]) / (hi[c] - lo[c]) or 0
        end
      end
      local name = string.format("picture_%04d", k - 1)
      cc.plot_image{dir = dir, name = name, nu = self.nu, nv = self.nv, r = ch[1], g = ch[2], b = ch[3],
        title = string.format("%s: log energy R stretch, G shear, B bend, t = %.3f s", (label:gsub("_", "-")),
          self.times[k])}
      files[#files + 1] = dir .. "/" .. name .. ".png"
    end
    return {files = files, hi = hi, lo = lo}
  end
  return rec
end

-- Plots ---------------------------------------------------------------------------------------

-- the cloth at the sim's current positions (or at the flat list of positions given instead
-- of sim) as a pm3d surface, coloured by height or by color; zrange = {lo, hi} fixes the z
-- scale, so that pictures of several runs compare
function scene.surface(dir, name, sim, nu, title, color, zrange)
  local x = type(sim) == "table" and sim or sim:positions()
  return cc.plot_surface{dir = dir, name = name, nu = nu, nv = #x // 3 // nu, x = x,
    color = color, title = title, zrange = zrange}
end

-- the (t, y) pairs of a run's series for a log axis: values within 8 decades of the
-- series' largest (the first steps' round-off-sized energies would squash the rest)
local function positive(run, key)
  local x, y, top = {}, {}, 0
  for _, v in ipairs(run[key]) do
    if finite(v) and v > top then top = v end
  end
  for i, v in ipairs(run[key]) do
    if finite(v) and v > 1e-8 * top then x[#x + 1], y[#y + 1] = run.t[i], v end
  end
  return x, y
end

local PANEL = {cg = {"MPCG iterations per step", "iterations"}, ms = {"wall time per step", "ms"}}

-- the gnuplot style of run k's line in every panel of scene.plot_runs
function scene.line(k) return "lines lt " .. k end

-- Energies over time in four panels (stretch, shear, bend on log axes; total linear), one
-- series per run, titled by run.title or run.label; terms may also name "cg" (MPCG
-- iterations per step) and "ms" (wall ms per step), and extra holds further panels
-- ({title=, xlabel=, ylabel=, series=}) appended as they are (draw run k's series in them with
-- with = scene.line(k): with several runs a last panel holds the legend of them all, and the
-- other panels have none unless they set key). Returns the PNG path (or nil, why).
function scene.plot_runs(dir, name, title, runs, terms, extra)
  terms = terms or {"stretch", "shear", "bend", "total"}
  local panels = {}
  -- a run that blew up is drawn only while its values stay within 10x of the largest
  -- |value| of the runs that survived, so the blow-up does not flatten the others
  local function clip(r, term, x, y)
    if r.ok then return x, y end
    local top = 0
    for _, o in ipairs(runs) do
      if o.ok then for _, v in ipairs(o[term]) do if finite(v) then top = math.max(top, math.abs(v)) end end end
    end
    if top == 0 then return x, y end
    local cx, cy = {}, {}
    for i = 1, #x do
      if math.abs(y[i]) > 10 * top then break end
      cx[i], cy[i] = x[i], y[i]
    end
    return cx, cy
  end
  -- run k is drawn in line type k in every panel (scene.line(k)), so one legend serves them all:
  -- with several runs it is a panel of its own, and no key covers a curve
  local legend = {}
  for k, r in ipairs(runs) do
    legend[k] = {title = (r.title or r.label) .. (r.ok and "" or " (blew up)"), x = {}, y = {}, with = scene.line(k)}
  end
  local shared = #runs > 1
  for _, term in ipairs(terms) do
    local logy = term ~= "total" and term ~= "gravity" and term ~= "cg" and term ~= "ms"
    local series = {}
    for k, r in ipairs(runs) do
      local x, y
      if logy then x, y = positive(r, term)
      elseif PANEL[term] then x, y = table.move(r.t, 2, #r.t, 1, {}), table.move(r[term], 2, #r.t, 1, {})
      else x, y = r.t, r[term] end
      x, y = clip(r, term, x, y)
      if #x > 0 then series[#series + 1] = {title = legend[k].title, x = x, y = y, with = scene.line(k)} end
    end
    if #series == 0 then series = {{title = "(none positive)", x = {0}, y = {1}}} end
    local what = PANEL[term] or {term .. " energy", "J"}
    panels[#panels + 1] = {title = what[1], xlabel = "t (s)", ylabel = what[2], logy = logy,
      key = shared and "off" or "outside right top", series = series}
  end
  for _, p in ipairs(extra or {}) do
    if shared and not p.key then p.key = "off" end
    panels[#panels + 1] = p
  end
  if shared then panels[#panels + 1] = {title = "runs", legend_only = true, series = legend} end
  local rows = #panels > 2 and 2 or 1
  local cols = (#panels + rows - 1) // rows
  local ok, msg = cc.plot{dir = dir, name = name, title = title, width = math.max(1200, 400 * cols), height = 900,
    layout = {rows, cols}, panels = panels}
  if ok == nil then error(msg, 0) end
  return ok and (dir .. "/" .. name .. ".png") or nil, msg
end

-- Summary -------------------------------------------------------------------------------------

function scene.fmt(x)
  if type(x) ~= "number" then return tostring(x) end
  if x ~= x then return "nan" end
  if math.abs(x) >= 1e4 or (x ~= 0 and math.abs(x) < 1e-3) then return string.format("%.3e", x) end
  return string.format("%.4g", x)
end

-- one line per run: how it ended, final energies, cost
function scene.run_line(r)
  local head = string.format("%-22s", r.title or r.label)
  if not r.ok then
    return string.format("%s FAILED at t = %s s after %d steps: %s", head, scene.fmt(r.fail_time), r.steps, r.msg)
  end
  local f = r.final
  return string.format("%s t=%s  stretch %s  shear %s  bend %s  total %s  | %.2f ms/step, %.1f CG it/step",
    head, scene.fmt(r.t[#r.t]), scene.fmt(f.stretch), scene.fmt(f.shear), scene.fmt(f.bend),
    scene.fmt(f.total), r.ms_per_step, r.cg_per_step)
end

-- With --solver: a line per simulation that stepped (its size, step, preconditioner, MPCG
-- iterations a step, steps solved again projected, where "auto" went over to the multigrid),
-- then the most iterations a step of any; the most as a second result. Empty without it.
function scene.solver_lines()
  local lines, most = {}, 0
  for _, sim in ipairs(scene.tracked or {}) do
    local st, p = sim:stats(), sim:params()
    if st.steps > 0 then
      local per = st.cg_iterations / st.steps
      local where = p.precond ~= "auto" and ""
        or st.multigrid_from > 0 and string.format(", the multigrid from step %d", st.multigrid_from)
        or ", the blocks throughout"
      lines[#lines + 1] = string.format("%d vertices, h = %s, %s: %d steps, %.1f MPCG iterations a step, %d solved again projected%s",
        sim.nv, scene.fmt(p.h), p.precond, st.steps, per, st.psd_retries, where)
      most = math.max(most, per)
    end
  end
  if #lines > 0 then lines[#lines + 1] = string.format("at most %.1f MPCG iterations a step", most) end
  return lines, most
end

function scene.summary(title, lines)
  print("== " .. title)
  for _, l in ipairs(lines) do print("  " .. l) end
  local solver = scene.solver_lines()
  if #solver > 0 then
    print("== solver, every simulation (--solver)")
    for _, l in ipairs(solver) do print("  " .. l) end
  end
end

-- the lowest z and the vertex holding it
function scene.lowest(positions)
  local zmin, at = math.huge, 0
  for k = 3, #positions, 3 do
    if positions[k] < zmin then zmin, at = positions[k], k // 3 end
  end
  return zmin, at
end

return scene
