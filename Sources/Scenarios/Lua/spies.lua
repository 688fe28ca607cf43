-- Spies, stubs and mocks, as luassert's.
--
-- A spy calls through to its callback and records each call: `calls[i]` and `returnvals[i]` hold
-- `vals` (deep copies, so a table changed after the call still shows what was passed) and `refs` (the
-- values themselves, for `match.is_ref`). `s:revert()` puts back what `spy.on` replaced and returns
-- the callback; `s:clear()` forgets the calls. Every spy joins the assert state's newest level, so
-- reverting a snapshot reverts it.
--
-- A stub is a spy over a function that answers what it is told: `stub(t, k)` answers nothing,
-- `stub(t, k, v...)` answers `v...`, `stub(t, k, fn)` calls `fn`; then `.returns(v...)`,
-- `.invokes(fn)` (also under `.by_default`) and `.on_call_with(args...).returns(...)` /
-- `.invokes(fn)` for calls with matching arguments. These are plain functions (luassert's dot form):
-- written with a colon, the stub itself comes first among the values.
--
-- `mock(t [, stub])` spies on (or stubs) every function in `t` and the tables inside it;
-- `mock.clear(t)` and `mock.revert(t)` clear or revert every spy found in it.
local assert, util = ...

local spy_meta = { __name = "spy" }
local methods = {}
spy_meta.__index = methods

local function is_spy(value) return getmetatable(value) == spy_meta end
util.is_spy = is_spy

-- Records the values a call returned, and hands them on.
local function returning(s, ...)
  local values = util.make_arglist(...)
  s.returnvals[#s.returnvals + 1] = util.copyargs(values)
  return ...
end

spy_meta.__call = function(s, ...)
  local calls = s.calls
  calls[#calls + 1] = util.copyargs(util.make_arglist(...))
  return returning(s, s.callback(...))
end

function methods.revert(s)
  if not s.reverted then
    if s.target_table ~= nil and s.target_key ~= nil then s.target_table[s.target_key] = s.callback end
    s.reverted = true
  end
  return s.callback
end

function methods.clear(s)
  s.calls = {}
  s.returnvals = {}
  return s
end

--- Whether the spy was called (`times` times, as `compare(count, times)` judges when given) and the
--- count of calls.
function methods.called(s, times, compare)
  local count = #s.calls
  if times or compare then
    compare = compare or function(got, wanted) return got == wanted end
    return compare(count, times), count
  end
  return count > 0, count
end

-- Whether some recorded list of `records` fits `expected`, with that list (or else the last one).
local function find(records, expected)
  local found = util.matchargs(records, expected)
  if found then return true, found.vals end
  local last = records[#records]
  return false, last and last.vals
end

function methods.called_with(s, args) return find(s.calls, args) end
function methods.returned_with(s, args) return find(s.returnvals, args) end

local spy = {}
spy.is_spy = is_spy

local function new_spy(callback, level)
  if callback == nil then callback = function() end end
  if not util.callable(callback) then
    error("Cannot spy on type '" .. type(callback) .. "', only on functions or callable elements", level + 1)
  end
  local s = setmetatable({ calls = {}, returnvals = {}, callback = callback }, spy_meta)
  assert:add_spy(s)
  return s
end

--- A spy that calls `callback` (nothing when absent).
function spy.new(callback) return new_spy(callback, 2) end

--- Replaces `t[key]` with a spy that calls through to it.
function spy.on(t, key)
  local s = new_spy(t[key], 2)
  t[key] = s
  s.target_table, s.target_key = t, key
  return s
end

setmetatable(spy, { __call = function(_, callback) return new_spy(callback, 3) end })

local stub = {}

local function new_stub(object, key, level, ...)
  if object == nil and key == nil then
    -- A blank stub, on a table of its own.
    object, key = {}, ""
  end
  if type(object) ~= "table" or key == nil then
    error("stub.new(): Can only create stub on a table key, call with 2 params; table, key", level + 1)
  end
  local original = object[key]
  if original ~= nil and not util.callable(original) then
    error("stub.new(): The element for which to create a stub must either be callable, or be nil", level + 1)
  end
  local given = util.pack(...)
  local function answer_given() return util.unpack(given) end
  local default = (given.n == 1 and util.callable(given[1])) and given[1] or answer_given
  -- Answers for calls with matching arguments, first registered first.
  local oncalls, answers = {}, {}

  object[key] = function(...)
    local oncall = util.matchoncalls(oncalls, util.make_arglist(...))
    if oncall then return answers[oncall](...) end
    return default(...)
  end
  local s = spy.on(object, key)
  local revert_spy = methods.revert
  s.revert = function(self)
    if not self.reverted then
      revert_spy(self)
      object[key] = original
      self.reverted = true
    end
    return original
  end

  s.returns = function(...)
    local values = util.pack(...)
    default = function() return util.unpack(values) end
    return s
  end
  s.invokes = function(fn)
    default = function(...) return fn(...) end
    return s
  end
  s.by_default = { returns = s.returns, invokes = s.invokes }
  s.on_call_with = function(...)
    local expected = util.copyargs(util.make_arglist(...))
    return {
      returns = function(...)
        local values = util.pack(...)
        oncalls[#oncalls + 1] = expected
        answers[expected] = function() return util.unpack(values) end
        return s
      end,
      invokes = function(fn)
        oncalls[#oncalls + 1] = expected
        answers[expected] = function(...) return fn(...) end
        return s
      end,
    }
  end
  return s
end

--- Replaces `object[key]` with a stub (see above); with no arguments, a blank stub.
function stub.new(object, key, ...) return new_stub(object, key, 2, ...) end
stub.is_stub = is_spy
setmetatable(stub, { __call = function(_, object, key, ...) return new_stub(object, key, 3, ...) end })

local mock = {}

--- Spies on (or, with `stubbed`, stubs with `fn`) every function in `object`, nested tables
--- included (each once); returns `object` itself.
function mock.new(object, stubbed, fn, owner, key)
  local visited = {}
  local function walk(value, holder, name)
    local kind = type(value)
    if kind == "table" then
      if is_spy(value) or visited[value] then return value end
      visited[value] = true
      for k, v in pairs(value) do value[k] = walk(v, value, k) end
      return value
    elseif kind == "function" then
      if stubbed then return new_stub(holder, name, 3, fn) end
      if holder == nil then return new_spy(value, 3) end
      return spy.on(holder, name)
    end
    return value
  end
  return walk(object, owner, key)
end

-- Calls `action` ("clear" or "revert") on every spy found in `object`.
local function apply(object, action, visited)
  if type(object) ~= "table" then return end
  if is_spy(object) then return object[action](object) end
  if visited[object] then return object end
  visited[object] = true
  for _, v in pairs(object) do apply(v, action, visited) end
  return object
end

function mock.clear(object) return apply(object, "clear", {}) end
function mock.revert(object) return apply(object, "revert", {}) end
setmetatable(mock, { __call = function(_, ...) return mock.new(...) end })

return { spy = spy, stub = stub, mock = mock, is_spy = is_spy }
