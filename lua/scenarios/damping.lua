-- damping.lua — 003 Figs 3.7-3.9: stretch, shear and bend damping swept one at a time.
-- Shows: d_st 10..100 damps the stretch energy's transient (the thesis also reports that
-- d_st <= 2 "could not be computed": 2 and 1 are included to test that); d_sh 0.02..4
-- damps the brief shear transient; d_b 2e-7..1e-5 damps the ringing of the bend energy.
-- Windows as in the figures: 0.32 s, 0.08 s and 0.52 s. Others at Table 3.1, h = 5 ms.
-- Level: intermediate.
--
--   clothcheck run lua/scenarios/damping.lua [--quick | --full] [--n 22] [--h 0.005]
--                  [--only d_stretch|d_shear|d_bend] [--frames 0] [--picture [N]] [--out DIR]
local scene = require "scene"

local o = scene.options("damping", arg, {n = 22, h = 0.005, only = "all", scale_T = 1.0},
  {quick = {n = 8, scale_T = 0.25}, full = {n = 66}})

local sweeps = {
  {param = "d_stretch", values = {1, 2, 10, 20, 100}, T = 0.32},   -- Fig 3.7 (+ the d_st <= 2 claim)
  {param = "d_shear",   values = {0.02, 2, 4},        T = 0.08},   -- Fig 3.8
  {param = "d_bend",    values = {2e-7, 2e-6, 1e-5},  T = 0.52},   -- Fig 3.9
}
local all, lines = {}, {}
for _, s in ipairs(sweeps) do
  if o.only == "all" or o.only == s.param then
    local values = s.values
    if o.quick then values = {s.values[1], s.values[#s.values]} end
    local runs, l = scene.sweep(o, s.param, values, s.T * o.scale_T, {preset = "thesis-table3.1", h = o.h})
    all[s.param] = runs
    for _, x in ipairs(l) do lines[#lines + 1] = x end
  end
end
scene.summary(string.format("damping: %dx%d patches, h = %s", o.n, o.n, o.h), lines)
return {sweeps = all}
