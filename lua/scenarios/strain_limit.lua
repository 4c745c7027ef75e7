-- strain_limit.lua — 002's strain limiting: a soft cloth with and without it.
-- Shows: with a weak stretch resistance the hanging cloth (1 m square pinned at two
-- corners, Table 3.1 with k_stretch lowered to 10) stretches well past 10 %; Provot's
-- position correction after the step and Bridson & Fedkiw's velocity correction before
-- the position update (002 "Strain Limiting", "Strain Limiting 2") keep every edge within
-- (1 +- strain_max) of its rest length. Measured: the largest and mean edge strain over
-- time, the energies, and the cost per step. Level: intermediate.
--
--   clothcheck run lua/scenarios/strain_limit.lua [--quick] [--n 16] [--T 2] [--h 0.005]
--                  [--k_stretch 10] [--strain_max 0.1] [--frames 0] [--picture [N]] [--out DIR]
local cc = require "clothcheck"
local scene = require "scene"

local o = scene.options("strain_limit", arg, {n = 16, T = 2.0, h = 0.005, k_stretch = 10, strain_max = 0.1},
  {quick = {n = 6, T = 0.3}})

-- the cloth's edges (each once) with their rest lengths from (u,v)
local function edges(mesh)
  local seen, list = {}, {}
  for t = 1, mesh.nt do
    local v = {mesh:triangle(t)}
    for k = 1, 3 do
      local a, b = v[k], v[k % 3 + 1]
      if a > b then a, b = b, a end
      local key = a * (mesh.nv + 1) + b
      if not seen[key] then
        seen[key] = true
        local ua, va = mesh:uv(a)
        local ub, vb = mesh:uv(b)
        list[#list + 1] = {a, b, math.sqrt((ua - ub) ^ 2 + (va - vb) ^ 2)}
      end
    end
  end
  return list
end

-- largest and mean strain |x_a - x_b| / L - 1 over the edges at positions x
local function strain(list, x)
  local smax, sum = -math.huge, 0
  for _, e in ipairs(list) do
    local a, b = 3 * (e[1] - 1), 3 * (e[2] - 1)
    local d = math.sqrt((x[a + 1] - x[b + 1]) ^ 2 + (x[a + 2] - x[b + 2]) ^ 2 + (x[a + 3] - x[b + 3]) ^ 2)
    local s = d / e[3] - 1
    if s > smax then smax = s end
    sum = sum + s
  end
  return smax, sum / #list
end

local lines, runs, result = {}, {}, {}
for _, mode in ipairs{"none", "provot", "bridson"} do
  local sim, mesh, nu = scene.hanging(o.n, {preset = "thesis-table3.1", h = o.h, k_stretch = o.k_stretch,
    strain_mode = mode, strain_max = o.strain_max})
  local list = edges(mesh)
  -- sample the strain about 40 times along the run (and at the start)
  local t_s, s_max, s_mean, worst = {}, {}, {}, 0
  local function sample(sm)
    local smx, smn = strain(list, sm:positions())
    t_s[#t_s + 1], s_max[#s_max + 1], s_mean[#s_mean + 1] = sm.time, smx, smn
    if smx > worst then worst = smx end
  end
  sample(sim)
  local joined = scene.run(sim, mesh, nu, {dir = o.dir, label = mode, T = o.T, frames = o.frames,
    picture = o.picture, progress = "strain " .. mode,
    on_step = function(sm, s, n) if s % math.max(1, n // 40) == 0 then sample(sm) end end})
  joined.title = "strain limiting: " .. mode
  local rows = {}
  for i = 1, #t_s do rows[i] = {t_s[i], s_max[i], s_mean[i]} end
  assert(cc.write_csv(o.dir .. "/" .. mode .. "/strain.csv", {"t", "max_strain", "mean_strain"}, rows))
  joined.strain_t, joined.strain_max, joined.strain_mean = t_s, s_max, s_mean
  runs[#runs + 1] = joined
  local over
  for i, t in ipairs(t_s) do
    if s_max[i] > o.strain_max * 1.01 then over = t; break end
  end
  local lowest = scene.lowest(sim:positions())
  result[mode] = {ok = joined.ok, worst = worst, first_over = over, final_max = s_max[#s_max],
    final_mean = s_mean[#s_mean], lowest = lowest}
  lines[#lines + 1] = scene.run_line(joined)
  lines[#lines + 1] = string.format(
    "%-22s largest edge strain over the run %.2f %%, at the end %.2f %% (mean %.2f %%), lowest z %s",
    "", 100 * worst, 100 * s_max[#s_max], 100 * s_mean[#s_mean], scene.fmt(lowest))
    .. (over and string.format("; first sample above the limit at t = %s s", scene.fmt(over))
        or "; never above the limit")
  scene.surface(o.dir, "shape_" .. mode, sim, nu, string.format("strain limiting %s, t = %.2f s", mode, sim.time))
end

-- strain samples up to the first one above 100 % (a run that blows up reaches thousands)
local function upto(r, key)
  local x, y = {}, {}
  for i, t in ipairs(r.strain_t) do
    if r.strain_max[i] > 1 then break end
    x[i], y[i] = t, r[key][i]
  end
  return x, y
end
local smax_series, smean_series = {}, {}
for _, r in ipairs(runs) do
  local t = r.label .. (r.ok and "" or " (blew up)")
  local x, y = upto(r, "strain_max")
  smax_series[#smax_series + 1] = {title = t, x = x, y = y, with = "linespoints"}
  x, y = upto(r, "strain_mean")
  smean_series[#smean_series + 1] = {title = t, x = x, y = y, with = "linespoints"}
end
scene.plot_runs(o.dir, "compare", string.format("soft hanging cloth (k-stretch = %s): strain limiting, limit %s",
  o.k_stretch, o.strain_max), runs,
  {"stretch", "kinetic"},
  {{title = "largest edge strain (drawn up to 100 %)", xlabel = "t (s)", ylabel = "strain", key = "bottom right",
    series = smax_series},
   {title = "mean edge strain", xlabel = "t (s)", ylabel = "strain", key = "bottom right", series = smean_series}})
scene.summary(string.format("strain_limit: %dx%d patches, k_stretch = %s, strain_max = %s", o.n, o.n, o.k_stretch,
  o.strain_max), lines)
return result
