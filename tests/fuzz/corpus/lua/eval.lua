local cc = require "clothcheck"
local r = cc.condition("stretch", "bw98"):eval({0, 0, 0, 1, 0, 0, 0, 1, 0}, {uv = {{0, 0}, {1, 0}, {0, 1}}})
local b = cc.condition("bend", "pritchard"):eval({-1, 0, 0, 0, -0.5, 0, 0, 0.6, 0, 0.7, 0.2, 0.7}, {rest = 0.1})
local f = cc.bridson_force({-1, 0, 0, 0, -0.5, 0, 0, 0.6, 0, 0.7, 0.2, 0.7}, {rest = 0, k = 2})
return r.value[1] + b.value[1] + f.force[1]
