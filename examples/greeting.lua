-- A module found by `require("examples.greeting")` under the script roots.
local greeting = {}

function greeting.say(name)
  return ("Hello from %s!"):format(name)
end

return greeting
