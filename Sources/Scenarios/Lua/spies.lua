-- Spies, stubs and mocks, as luassert's: a spy records every call (arguments and results) and calls
-- through; a stub records and answers what it was told (`returns`, `invokes`); `mock(t)` puts a spy
-- (or a stub) on every function of a table, nested tables included. `:revert()` puts back what was
-- replaced; `:clear()` forgets the calls.
local match = ...
local spy_meta = { __name = "spy" }
local spies = {}

local function is_spy(value) return getmetatable(value) == spy_meta end

spy_meta.__call = function(self, ...)
  local args = table.pack(...)
  local call = { args = args }
  self.calls[#self.calls + 1] = call
  local results = table.pack(self.callback(...))
  call.results = results
  return table.unpack(results, 1, results.n)
end
spy_meta.__index = {
  revert = function(self)
    if self.target ~= nil then rawset(self.target, self.key, self.original) end
    return self
  end,
  clear = function(self)
    self.calls = {}
    return self
  end,
  --- The stub answers these values from now on.
  returns = function(self, ...)
    local values = table.pack(...)
    self.callback = function() return table.unpack(values, 1, values.n) end
    return self
  end,
  --- The stub calls `fn` with the arguments and answers what it returns.
  invokes = function(self, fn)
    if type(fn) ~= "function" and not is_spy(fn) then error("bad argument #1 to 'invokes' (function expected)", 2) end
    self.callback = fn
    return self
  end,
  --- Whether one of the calls had arguments matching `...` (values compared deeply, or matchers).
  called_with = function(self, ...)
    return self:any_call("args", table.pack(...))
  end,
  --- Whether one of the calls returned values matching `...`.
  returned_with = function(self, ...)
    return self:any_call("results", table.pack(...))
  end,
  --- Whether one call's `field` ("args" or "results") matches the list `expected`.
  any_call = function(self, field, expected)
    for _, call in ipairs(self.calls) do
      -- A call that raised returned nothing: it has no results to match.
      local values = call[field]
      if values ~= nil and values.n == expected.n then
        local all = true
        for i = 1, expected.n do
          if not match.argument(expected[i], values[i]) then all = false break end
        end
        if all then return true end
      end
    end
    return false
  end,
}

local function new_spy(callback, target, key, original)
  return setmetatable({ calls = {}, callback = callback, target = target, key = key, original = original }, spy_meta)
end

local spy = {}
spy.is_spy = is_spy

--- A spy that calls `fn` (nothing when absent) and records each call.
function spy.new(fn)
  if fn ~= nil and type(fn) ~= "function" and not is_spy(fn) then
    error("bad argument #1 to 'spy.new' (function expected, got " .. type(fn) .. ")", 2)
  end
  return new_spy(fn or function() end)
end

local function replace(kind, target, key, make_callback)
  if type(target) ~= "table" then
    error(("bad argument #1 to '%s' (table expected, got %s)"):format(kind, type(target)), 3)
  end
  local original = rawget(target, key)
  if original == nil then original = target[key] end
  local s = new_spy(make_callback(original), target, key, rawget(target, key))
  rawset(target, key, s)
  return s
end

--- Replaces `target[key]` with a spy that calls through to it.
function spy.on(target, key)
  return replace("spy.on", target, key, function(original)
    if type(original) ~= "function" and not is_spy(original) then
      error(("spy.on: '%s' is not a function (it is %s)"):format(tostring(key), type(original)), 4)
    end
    return original
  end)
end

setmetatable(spy, { __call = function(_, fn) return spy.new(fn) end })

--- Replaces `target[key]` with a stub answering `...` (nothing when absent); `stub.new()` makes one
--- that replaces nothing.
local stub = {}
function stub.new(target, key, ...)
  if target == nil then return new_spy(function() end) end
  local values = table.pack(...)
  return replace("stub", target, key, function()
    return function() return table.unpack(values, 1, values.n) end
  end)
end
stub.is_stub = is_spy
setmetatable(stub, { __call = function(_, ...) return stub.new(...) end })

--- Spies on (or, with `stubbed`, stubs) every function of `target` and of the tables in it.
local function mock(target, stubbed, seen)
  seen = seen or {}
  if seen[target] then return target end
  seen[target] = true
  for key, value in pairs(target) do
    if type(value) == "function" then
      if stubbed then stub.new(target, key) else spy.on(target, key) end
    elseif type(value) == "table" and not is_spy(value) then
      mock(value, stubbed, seen)
    end
  end
  return target
end

local mock_module = setmetatable({}, { __call = function(_, target, stubbed) return mock(target, stubbed) end })
--- Puts back everything `mock` replaced in `target`.
function mock_module.revert(target, seen)
  seen = seen or {}
  if seen[target] then return target end
  seen[target] = true
  for _, value in pairs(target) do
    if is_spy(value) then value:revert()
    elseif type(value) == "table" then mock_module.revert(value, seen) end
  end
  return target
end

return { spy = spy, stub = stub, mock = mock_module, is_spy = is_spy }
