-- VM-bound work for scripts/bench (group lua-vm): calls, integer arithmetic and table writes, no
-- library call in the loops, so that the figure is the VM's own speed (and whatever a hook costs it).
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

local ring, acc = {}, 0
for i = 1, 200000 do
  acc = (acc + i * 7) % 1000003
  ring[i % 1024 + 1] = acc
end
acc = acc + fib(20) + ring[1]
assert(acc > 0)
