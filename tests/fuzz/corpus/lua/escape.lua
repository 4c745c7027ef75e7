local ok = pcall(io.open, "/etc/passwd")
local ok2 = pcall(load, string.dump(function() end))
local ok3 = pcall(require, "os")
return ok, ok2, ok3
