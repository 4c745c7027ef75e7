local cc = require "clothcheck"
local c = cc.define{condition = "spring", variant = "f", nv = 2,
  value = function(x) return x[1] - x[4] end,
  gradient = function() return {1, 0, 0, -1, 0, 0} end,
  hessian = function() local h = {} for i = 1, 36 do h[i] = 0 end return h end}
c:eval({0, 0, 0, 1, 0, 0})
cc.audit(c, {samples = 3, reference = "fd-true"}):rows()
