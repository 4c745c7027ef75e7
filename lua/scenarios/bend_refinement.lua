-- bend_refinement.lua — does the bend model converge as the mesh is refined?
-- Shows: the cantilever of bend_compare (a strip 0.5 m x 0.1 m of Table 1 cloth clamped along
-- x = 0), ten times stiffer (k_bend 0.2: small deflections, where sag is inversely
-- proportional to the bending stiffness), at several resolutions with the same k_bend, for the
-- unweighted angle (pritchard-exact: C = theta - theta0), Bridson's force model, Discrete
-- Shells (theta weighted by |e|^2/A of the rest mesh) and the quadratic model. Two ways of
-- refining: uniformly (n x n/5 patches, the cells keep their shape) and along the length only
-- (n x 2 patches, the cells grow thinner). Uniformly, every model settles to a limit, each to
-- its own; along the length, the unweighted angle's sag grows with n (its hinge energy
-- k/2 theta^2 does not know how long a hinge is nor how far apart its triangles are, so a
-- given curvature costs less as n grows), while Discrete Shells and the quadratic model, whose
-- weight |e|^2/A grows as the triangles thin, stay near their limit (docs/scenarios.md,
-- docs/bend.md). The end of the strip's middle row is measured after T seconds (damped: it
-- has come to rest). Level: intermediate. About 20 s (--quick: a second).
--
--   clothcheck run lua/scenarios/bend_refinement.lua [--quick] [--T 1.5] [--h 0.01]
--                  [--k_bend 0.2] [--levels 4] [--out DIR]
-- --levels L: n = 10, 20, 40, ... (L values; uniform refinement stops at 80 x 16).
local cc = require "clothcheck"
local scene = require "scene"

local formulations = {
  {label = "pritchard-exact", params = {bend_variant = "pritchard-exact"}},
  {label = "bridson-force",   params = {bend_condition = "bridson-force"}},
  {label = "discrete-shells", params = {bend_variant = "discrete-shells"}},
  {label = "quadratic",       params = {bend_variant = "quadratic"}},
}

local o = scene.options("bend_refinement", arg, {T = 1.5, h = 0.01, k_bend = 0.2, levels = 4})
if o.quick then o.T, o.levels = math.min(o.T, 0.3), math.min(o.levels, 2) end
if o.levels < 1 or o.levels > 6 or o.levels ~= math.floor(o.levels) then
  error("bend_refinement: --levels must be a whole number from 1 to 6", 0)
end

-- the end of the middle row of an nx x ny strip after T, or nil, why
local function sag(nx, ny, f)
  local params = {preset = "pritchard-table1", h = o.h, k_bend = o.k_bend, d_bend = 0.2 * o.k_bend}
  for k, v in pairs(f.params) do params[k] = v end
  local sim, _, nu, row = scene.strip(nx, ny, params)
  local ok, msg = sim:advance(o.T)
  if not ok then return nil, msg end
  local _, _, z = sim:position(scene.vertex(nu, nx, row))
  return z, sim:stats().cg_iterations / sim:stats().steps
end

local paths = {
  {name = "uniform", title = "uniform (n x n/5)", across = function(n) return n // 5 end, max = 80},
  {name = "length", title = "along the length (n x 2)", across = function() return 2 end, max = 320},
}

local results, lines = {}, {}
local t0 = cc.wall_time()
for _, p in ipairs(paths) do
  local res = {n = {}, tip = {}, it = {}, title = p.title}
  results[p.name] = res
  for _, f in ipairs(formulations) do res.tip[f.label], res.it[f.label] = {}, {} end
  for l = 1, o.levels do
    local n = 10 * 2 ^ (l - 1)
    if n <= p.max then
      res.n[#res.n + 1] = n
      for _, f in ipairs(formulations) do
        local z, it = sag(n, p.across(n), f)
        res.tip[f.label][#res.n], res.it[f.label][#res.n] = z or 0 / 0, it
        cc.progress("refinement " .. p.name, l, o.levels)
      end
    end
  end
  for _, f in ipairs(formulations) do
    local t = {}
    for i = 1, #res.n do t[#t + 1] = string.format("%d: %s", res.n[i], scene.fmt(res.tip[f.label][i])) end
    lines[#lines + 1] = string.format("%-9s %-16s tip z  %s", p.name, f.label, table.concat(t, "  "))
  end
end
-- one CSV per way of refining: n, n across, then the tip z of every formulation
for _, p in ipairs(paths) do
  local res, header, rows = results[p.name], {"n_length", "n_across"}, {}
  for _, f in ipairs(formulations) do header[#header + 1] = "tip_z_" .. f.label:gsub("%-", "_") end
  for i, n in ipairs(res.n) do
    local row = {n, p.across(n)}
    for _, f in ipairs(formulations) do row[#row + 1] = res.tip[f.label][i] end
    rows[#rows + 1] = row
  end
  assert(cc.write_csv(o.dir .. "/bend_refinement_" .. p.name .. ".csv", header, rows))
end

local panels = {}
for _, p in ipairs(paths) do
  local res, series = results[p.name], {}
  for _, f in ipairs(formulations) do
    series[#series + 1] = {title = f.label, x = res.n, y = res.tip[f.label], with = "linespoints pt 7"}
  end
  panels[#panels + 1] = {title = "refined " .. p.title, xlabel = "patches along the strip, n", ylabel = "tip z (m)",
    logx = true, key = "bottom left", series = series}
end
local ok, msg = cc.plot{dir = o.dir, name = "bend_refinement", width = 1300, height = 560, layout = {1, 2},
  title = string.format("cantilever strip 0.5 x 0.1 m, k-bend = %s, after %s s", scene.fmt(o.k_bend), scene.fmt(o.T)),
  panels = panels}
if ok == nil then error(msg, 0) end
lines[#lines + 1] = string.format("%.1f s wall; outputs in %s", cc.wall_time() - t0, o.dir)
scene.summary("bend_refinement: the end of the strip's middle row as the mesh is refined", lines)
return {results = results, formulations = formulations}
