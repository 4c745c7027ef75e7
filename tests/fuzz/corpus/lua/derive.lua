local cc = require "clothcheck"
local d = cc.condition("shear", "normalized"):derive()
local steps = cc.derivation(cc.condition("bend", "macri"))
return #d.steps + #steps
