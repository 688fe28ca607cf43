-- A module found by `require("greeting")` in examples/hello.lua: beside the script that requires it.
local greeting = {}

function greeting.say(name)
  return ("Hello from %s!"):format(name)
end

return greeting
