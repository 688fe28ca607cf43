-- A first script: runs in EnvScript's sandbox with `envscript run examples/hello.lua` (or `envscript run
-- hello.lua` inside examples/). `require` finds greeting.lua beside this script, from any current folder.
local greeting = require("greeting")

local function fibonacci(n)
  local a, b = 0, 1
  for _ = 1, n do a, b = b, a + b end
  return a
end

print(greeting.say("EnvScript"))
print(("%s, fibonacci(50) = %d"):format(_VERSION, fibonacci(50)))

-- The sandbox keeps scripts away from files, processes and the environment.
print("io available: " .. tostring(io ~= nil) .. ", os.execute available: " .. tostring(os.execute ~= nil))
