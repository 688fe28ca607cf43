-- The built-in assertions and modifiers, registered as a user's would be (see luassert.lua): the
-- words that only read well (`is`, `are`, `was`, `has`, `does`), the negations (`not`, `no`),
-- `message(m)`, `spy(s [, m])`/`stub(s [, m])` and `array(t)`, which set the state later words read;
-- and equality, sameness, truthiness, types, `near`, `matches`, `unique`, errors, returned argument
-- counts, spies' calls and arrays' holes.
--
-- Each assertion rearranges its arguments into the order its message shows them ("Passed in" before
-- "Expected"), marks those already text (`nofmt`), and takes the argument after its own as the
-- custom message; some also return values of their own (captures, the error caught).
local assert, util, compare, say = ...

local function shown(value) return assert:format({ value, n = 1 })[1] end

local function set_message(state, message)
  if message ~= nil then state.failure_message = message end
end

local function at_least(name, count, args, level)
  if args.n < count then error(say("assertion.internal.argtolittle", { name, count, tostring(args.n) }), level + 1) end
end

local function bad_argument(index, name, expected, got, level)
  error(say("assertion.internal.badargtype", { index, name, expected, got }), level + 1)
end

-- Puts the second argument first: the value passed in, then the one expected.
local function passed_first(args) args[1], args[2] = args[2], args[1] end

-- Modifiers.
local function reads_well(state) return state end
for _, word in ipairs({ "is", "are", "was", "has", "does" }) do assert:register("modifier", word, reads_well) end
local function negates(state)
  state.mod = not state.mod
  return state
end
assert:register("modifier", "not", negates)
assert:register("modifier", "no", negates)
assert:register("modifier", "message", function(state, args) state.failure_message = args and args[1] end)
assert:register("modifier", "spy", function(state, args)
  if args == nil then return end
  state.payload = args[1]
  if args[2] ~= nil then state.failure_message = args[2] end
end)
assert:register("modifier", "stub", function(state, args)
  if args == nil then return end
  state.payload = args[1]
  state.failure_message = args[2]
end)

-- Equality and sameness.
local function equals(state, args, level)
  at_least("equals", 2, args, level)
  local holds = args[1] == args[2]
  passed_first(args)
  set_message(state, args[3])
  return holds
end
assert:register("assertion", "equals", equals, "assertion.equals.positive", "assertion.equals.negative")
assert:register("assertion", "equal", equals, "assertion.equals.positive", "assertion.equals.negative")

local function same(state, args, level)
  at_least("same", 2, args, level)
  local holds, crumbs
  if type(args[1]) == "table" and type(args[2]) == "table" then
    holds, crumbs = compare.deep(args[1], args[2], true)
    args.fmtargs = args.fmtargs or {}
    args.fmtargs[1] = { crumbs = crumbs }
    args.fmtargs[2] = { crumbs = crumbs }
  else
    holds = args[1] == args[2]
  end
  passed_first(args)
  set_message(state, args[3])
  return holds
end
assert:register("assertion", "same", same, "assertion.same.positive", "assertion.same.negative")

local function truthy(state, args, level)
  at_least("truthy", 1, args, level)
  set_message(state, args[2])
  return args[1] ~= false and args[1] ~= nil
end
assert:register("assertion", "truthy", truthy, "assertion.truthy.positive", "assertion.truthy.negative")
assert:register("assertion", "falsy", function(state, args, level)
  at_least("falsy", 1, args, level)
  return not truthy(state, args, level)
end, "assertion.falsy.positive", "assertion.falsy.negative")

-- `true`, `false` and the types show the expected value after the one passed in.
local function exactly(expected)
  return function(state, args)
    util.tinsert(args, 2, expected)
    set_message(state, args[3])
    return args[1] == args[2]
  end
end
assert:register("assertion", "true", exactly(true), "assertion.same.positive", "assertion.same.negative")
assert:register("assertion", "false", exactly(false), "assertion.same.positive", "assertion.same.negative")

for _, kind in ipairs({ "boolean", "number", "string", "table", "nil", "userdata", "function", "thread" }) do
  assert:register("assertion", kind, function(state, args)
    util.tinsert(args, 2, "type " .. kind)
    args.nofmt = args.nofmt or {}
    args.nofmt[2] = true
    set_message(state, args[3])
    return args.n > 1 and type(args[1]) == kind
  end, "assertion.same.positive", "assertion.same.negative")
end

assert:register("assertion", "near", function(state, args, level)
  at_least("near", 3, args, level)
  local expected, actual, tolerance = tonumber(args[1]), tonumber(args[2]), tonumber(args[3])
  local kind = "number or object convertible to a number"
  if not expected then bad_argument(1, "near", kind, shown(args[1]), level) end
  if not actual then bad_argument(2, "near", kind, shown(args[2]), level) end
  if not tolerance then bad_argument(3, "near", kind, shown(args[3]), level) end
  passed_first(args)
  args[3] = tolerance
  args.nofmt = args.nofmt or {}
  args.nofmt[3] = true
  set_message(state, args[4])
  return actual >= expected - tolerance and actual <= expected + tolerance
end, "assertion.near.positive", "assertion.near.negative")

-- The custom message of `matches` and `error_matches`: the first argument from the third on that
-- can be neither `init` (a number) nor `plain` (a boolean); taken out of the list.
local function take_message(args)
  for i = 3, args.n do
    local value = args[i]
    if value and type(value) ~= "boolean" and not tonumber(value) then
      return util.tremove(args, i), i == 3
    end
  end
  return nil, false
end

-- `find` (plain) or `match` (captures) of `pattern` in `text` from `init`: whether it matched, and the
-- values to return (the captures, or the pattern for a plain find).
local function search(text, pattern, init, plain)
  if plain then
    local found = text:find(pattern, init, plain) ~= nil
    return found, found and { pattern } or {}
  end
  local captures = { text:match(pattern, init) }
  return captures[1] ~= nil, captures
end

local function matches(state, args, level)
  at_least("matches", 2, args, level)
  local pattern, actual = args[1], nil
  if util.hastostring(args[2]) or type(args[2]) == "number" then actual = tostring(args[2]) end
  local message, shifted = take_message(args)
  local init, plain = args[3], args[4]
  if type(pattern) ~= "string" then bad_argument(1, "matches", "string", type(args[1]), level) end
  if not actual then
    bad_argument(2, "matches", "string or object convertible to a string", shown(args[2]), level)
  end
  if init ~= nil and not tonumber(init) then bad_argument(shifted and 4 or 3, "matches", "number", type(init), level) end
  passed_first(args)
  set_message(state, message)
  return search(actual, pattern, init, plain)
end
assert:register("assertion", "matches", matches, "assertion.matches.positive", "assertion.matches.negative")
assert:register("assertion", "match", matches, "assertion.matches.positive", "assertion.matches.negative")

assert:register("assertion", "unique", function(state, args)
  local list, deep = args[1], nil
  if type(args[2]) == "boolean" or (args[2] == nil and args.n > 2) then
    deep = args[2]
    set_message(state, args[3])
  else
    if type(args[3]) == "boolean" then deep = args[3] end
    set_message(state, args[2])
  end
  for k, v in pairs(list) do
    for k2, v2 in pairs(list) do
      if k ~= k2 and ((deep and compare.deep(v, v2, true)) or v == v2) then return false end
    end
  end
  return true
end, "assertion.unique.positive", "assertion.unique.negative")

-- Errors. The error caught loses the "file:line: " Lua puts before a message raised with a level.
local function without_position(err)
  if type(err) == "string" then return (err:gsub("^.-:%d+: ", "", 1)) end
  return err
end

local function has_error(state, args, level)
  local returned = util.shallowcopy(args)
  local fn, expected, message = args[1], args[2], args[3]
  if not util.callable(fn) then bad_argument(1, "error", "function or callable object", type(fn), level) end
  local ok, err = pcall(fn)
  err = without_position(err)
  returned[1] = err
  args.n = 2
  args[1] = ok and "(no error)" or err
  args[2] = expected == nil and "(error)" or expected
  args.nofmt = { ok, expected == nil }
  set_message(state, message)
  if ok or expected == nil then return not ok, returned end
  if type(expected) == "string" then
    if util.hastostring(err) then
      err = tostring(err)
      returned[1] = err
    end
    if type(err) == "string" then return expected == err, returned end
  elseif type(expected) == "number" and type(err) == "string" then
    return tostring(expected) == tostring(tonumber(err)), returned
  end
  return same(state, { expected, err, n = 2 }, level), returned
end
for _, name in ipairs({ "error", "errors" }) do
  assert:register("assertion", name, has_error, "assertion.error.positive", "assertion.error.negative")
end

local function error_matches(state, args, level)
  local returned = util.shallowcopy(args)
  local fn, pattern = args[1], args[2]
  at_least("error_matches", 2, args, level)
  if not util.callable(fn) then bad_argument(1, "error_matches", "function or callable object", type(fn), level) end
  if pattern ~= nil and type(pattern) ~= "string" then bad_argument(2, "error", "string", type(pattern), level) end
  local message, shifted = take_message(args)
  local init, plain = args[3], args[4]
  if init ~= nil and not tonumber(init) then bad_argument(shifted and 4 or 3, "matches", "number", type(init), level) end
  local ok, err = pcall(fn)
  err = without_position(err)
  returned[1] = err
  args.n = 2
  args[1] = ok and "(no error)" or err
  args[2] = pattern
  args.nofmt = { ok, false }
  set_message(state, message)
  if ok then return false, returned end
  if err == nil and pattern == nil then return true, {} end
  if util.hastostring(err) or type(err) == "number" or type(err) == "boolean" then
    err = tostring(err)
    returned[1] = err
  end
  if type(err) ~= "string" then return false, returned end
  local found, captures = search(err, pattern, init, plain)
  if found then return true, captures end
  return false, returned
end
for _, name in ipairs({ "error_matches", "error_match", "matches_error", "match_error" }) do
  assert:register("assertion", name, error_matches, "assertion.error.positive", "assertion.error.negative")
end

assert:register("assertion", "returned_arguments", function(_, args)
  args[1] = tostring(args[1])
  args[2] = tostring(args.n - 1)
  args.nofmt = args.nofmt or {}
  args.nofmt[1] = true
  args.nofmt[2] = true
  if args.n < 2 then args.n = 2 end
  return args[1] == args[2]
end, "assertion.returned_arguments.positive", "assertion.returned_arguments.negative")

-- Spies: the spy comes from `assert.spy(s)` / `assert.stub(s)`.
local function called(name, compare_counts)
  return function(state, args, level)
    local times = args[1]
    -- `was_not.called()` is `was.called(0)`.
    if not times and not state.mod then
      state.mod = true
      times = 0
    end
    local payload = rawget(state, "payload")
    if type(payload) == "table" and payload.called then
      local holds, count = payload:called(times, compare_counts)
      args[1] = tostring(times or ">0")
      util.tinsert(args, 2, tostring(count))
      args.nofmt = args.nofmt or {}
      args.nofmt[1] = true
      args.nofmt[2] = true
      return holds
    elseif type(payload) == "function" then
      error("When calling 'spy(aspy)', 'aspy' must not be the original function, but the spy function replacing the original", level)
    end
    error("'" .. name .. "' must be chained after 'spy(aspy)'", level)
  end
end
local function spy_assertion(name, compare_counts, positive, negative)
  assert:register("assertion", name, called(name, compare_counts),
    "assertion." .. positive .. ".positive", "assertion." .. negative .. ".positive")
end
assert:register("assertion", "called", called("called"), "assertion.called.positive", "assertion.called.negative")
spy_assertion("called_at_least", function(count, times) return count >= times end, "called_at_least", "called_less_than")
spy_assertion("called_at_most", function(count, times) return count <= times end, "called_at_most", "called_more_than")
spy_assertion("called_more_than", function(count, times) return count > times end, "called_more_than", "called_at_most")
spy_assertion("called_less_than", function(count, times) return count < times end, "called_less_than", "called_at_least")

-- `called_with` and `returned_with` show the matching (or last) recorded list, then the expected one.
local function with(name, method)
  return function(state, args, level)
    local payload = rawget(state, "payload")
    if not (payload and payload[method]) then error("'" .. name .. "' must be chained after 'spy(aspy)'", level) end
    local holds, found = payload[method](payload, args)
    local expected = util.shallowcopy(args)
    util.cleararglist(args)
    util.tinsert(args, 1, found)
    util.tinsert(args, 2, expected)
    return holds
  end
end
assert:register("assertion", "called_with", with("called_with", "called_with"),
  "assertion.called_with.positive", "assertion.called_with.negative")
assert:register("assertion", "returned_with", with("returned_with", "returned_with"),
  "assertion.returned_with.positive", "assertion.returned_with.negative")

-- Arrays: `assert.array(t).has.no.holes([length])`; `holes` returns the first missing index.
local ARRAY = "__array_state"
assert:register("modifier", "array", function(state, args, level)
  if args == nil then return state end
  if args.n == 0 then error("No array provided to the array-modifier", level) end
  if rawget(state, ARRAY) ~= nil then error("Array already set", level) end
  rawset(state, ARRAY, args[1])
  return state
end)
assert:register("assertion", "holes", function(state, args, level)
  local length = args[1]
  local array = rawget(state, ARRAY)
  if array == nil then error("No array set, please use the array modifier to set the array to validate", level) end
  if length == nil then
    length = 0
    for i in pairs(array) do
      if type(i) == "number" and i > length and i % 1 == 0 then length = i end
    end
  end
  if type(length) ~= "number" then
    error("expected array length to be of type 'number', got: " .. tostring(length), level)
  end
  local missing
  for i = 1, length do
    if array[i] == nil then
      missing = i
      break
    end
  end
  args[1] = missing
  args.n = missing and 1 or 0
  return missing ~= nil, { missing }
end, "assertion.array_holes.positive", "assertion.array_holes.negative")
