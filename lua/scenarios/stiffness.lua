-- stiffness.lua — 003 Figs 3.4-3.6: stretch, shear and bend resistance swept one at a time.
-- Shows: k_st 20..1000 changes the stored stretch energy but hardly the drape; k_sh 1..50
-- changes the sag and the swing; k_b 1e-6..1e-4 changes the folds and the bend energy (the
-- thesis's readings, checked here by the numbers printed). Others at Table 3.1, fixed step
-- h = 5 ms (the thesis's), 2.4 s of drape. Level: intermediate.
--
--   clothcheck run lua/scenarios/stiffness.lua [--quick | --full] [--n 22] [--T 2.4] [--h 0.005]
--                  [--only k_stretch|k_shear|k_bend] [--frames 0] [--picture [N]] [--out DIR]
local scene = require "scene"

local o = scene.options("stiffness", arg, {n = 22, T = 2.4, h = 0.005, only = "all"},
  {quick = {n = 8, T = 0.05}, full = {n = 66}})

local sweeps = {
  {param = "k_stretch", values = {20, 50, 100, 200, 1000}},   -- Fig 3.4
  {param = "k_shear",   values = {1, 10, 50}},                -- Fig 3.5
  {param = "k_bend",    values = {1e-6, 1e-5, 1e-4}},         -- Fig 3.6
}
local all, lines = {}, {}
for _, s in ipairs(sweeps) do
  if o.only == "all" or o.only == s.param then
    local values = s.values
    if o.quick then values = {s.values[1], s.values[#s.values]} end
    local runs, l = scene.sweep(o, s.param, values, o.T, {preset = "thesis-table3.1", h = o.h})
    all[s.param] = runs
    for _, x in ipairs(l) do lines[#lines + 1] = x end
  end
end
scene.summary(string.format("stiffness: %dx%d patches, T = %s s, h = %s", o.n, o.n, o.T, o.h), lines)
return {sweeps = all}
