-- `assert`, as luassert's: assertions reached through chains of modifiers written with dots or
-- underscores (`assert.are.same`, `assert.is_not.equal`, `assert.has_no.errors`, `assert.is_true`),
-- failure messages in luassert's shape, `assert.message(text)` and a custom message as the argument
-- after an assertion's own, and `assert.spy(s).was.called(n)`. `assert(v, message)` stays Lua's own.
local format, compare, match, spies = ...

-- Words that only read well: they change nothing.
local fillers = {
  is = true, are = true, was = true, has = true, have = true, does = true, ["do"] = true, the = true,
  a = true, an = true, to = true, be = true, been = true, is_a = true, ["and"] = true,
}
-- Words that negate what follows.
local negators = { ["not"] = true, no = true }

local assertions = {}

--- Registers an assertion: `test(args, state)` answers whether it holds, and a second value, the
--- message shown when the outcome is not the wanted one (it receives whether the assertion was negated).
--- `arity` counts its arguments, optional ones included; the argument after them is a custom message.
--- From `optional` on, the arguments are never strings, so a string there is the message instead.
local function register(names, arity, test, optional)
  for _, name in ipairs(names) do
    assertions[name] = { arity = arity, test = test, name = names[1], optional = optional }
  end
end

local function values_message(heading, passed, expected, negated, marks_passed, marks_expected)
  local lead = negated and "Did not expect:" or "Expected:"
  return heading .. "\nPassed in:\n" .. format.value(passed, marks_passed) .. "\n" .. lead .. "\n" .. format.value(expected, marks_expected)
end

register({ "equal", "equals" }, 2, function(a)
  return a[1] == a[2], function(negated)
    return values_message(negated and "Expected objects to not be equal." or "Expected objects to be equal.", a[2], a[1], negated)
  end
end)

register({ "same" }, 2, function(a)
  local ok, path = compare.same(a[1], a[2])
  return ok, function(negated)
    local text = values_message(negated and "Expected objects to not be the same." or "Expected objects to be the same.",
      a[2], a[1], negated, path, path)
    if path and #path > 0 then text = text .. "\nDifference at: " .. format.path(path) end
    return text
  end
end)

register({ "truthy" }, 1, function(a)
  return a[1] ~= nil and a[1] ~= false, function(negated)
    return (negated and "Expected to not be truthy, but value was:\n" or "Expected to be truthy, but value was:\n") .. format.value(a[1])
  end
end)

register({ "falsy" }, 1, function(a)
  return a[1] == nil or a[1] == false, function(negated)
    return (negated and "Expected to not be falsy, but value was:\n" or "Expected to be falsy, but value was:\n") .. format.value(a[1])
  end
end)

local function exactly(name, expected)
  register({ name }, 1, function(a)
    return rawequal(a[1], expected), function(negated)
      return values_message(negated and "Expected objects to not be the same." or "Expected objects to be the same.",
        a[1], expected, negated)
    end
  end)
end
exactly("true", true)
exactly("false", false)
exactly("nil", nil)

for _, kind in ipairs({ "number", "string", "table", "function", "boolean", "userdata", "thread" }) do
  register({ kind }, 1, function(a)
    return type(a[1]) == kind, function(negated)
      return ("Expected type %s%s, but value was:\n%s"):format(negated and "not " or "", kind, format.value(a[1]))
    end
  end)
end

register({ "near" }, 3, function(a)
  local expected, actual, tolerance = a[1], a[2], a[3]
  for i, what in ipairs({ "expected", "actual", "tolerance" }) do
    if type(a[i]) ~= "number" then
      error(("bad argument #%d to 'assert.near' (%s must be a number, got %s)"):format(i, what, type(a[i])), 3)
    end
  end
  return actual >= expected - tolerance and actual <= expected + tolerance, function(negated)
    return (negated and "Expected values to not be near.\nPassed in:\n%s\nDid not expect:\n%s +/- %s"
      or "Expected values to be near.\nPassed in:\n%s\nExpected:\n%s +/- %s"):format(
        format.value(actual), format.value(expected), format.value(tolerance))
  end
end)

register({ "matches", "match" }, 4, function(a)
  local pattern, actual = a[1], a[2]
  local subject = type(actual) == "number" and tostring(actual) or actual
  local ok = type(subject) == "string" and subject:find(pattern, a[3], a[4]) ~= nil
  return ok, function(negated)
    return (negated and "Expected strings not to match.\nPassed in:\n%s\nDid not expect:\n%s"
      or "Expected strings to match.\nPassed in:\n%s\nExpected:\n%s"):format(format.value(actual), format.value(pattern))
  end
end, 3)

register({ "unique" }, 2, function(a)
  local list, deep = a[1], a[2]
  if type(list) ~= "table" then error("bad argument #1 to 'assert.unique' (table expected, got " .. type(list) .. ")", 3) end
  local keys = format.sorted_keys(list)
  local ok = true
  for i = 1, #keys do
    for j = i + 1, #keys do
      local x, y = list[keys[i]], list[keys[j]]
      if (deep and compare.same(x, y)) or (not deep and x == y) then ok = false end
    end
  end
  return ok, function(negated)
    return (negated and "Expected object to not be unique:\n" or "Expected object to be unique:\n") .. format.value(list)
  end
end, 2)

register({ "property" }, 2, function(a)
  local name, object = a[1], a[2]
  local ok = type(object) == "table" and object[name] ~= nil
  return ok, function(negated)
    return (negated and "Expected property %s to not be in:\n%s" or "Expected property %s in:\n%s"):format(
      format.value(name), format.value(object))
  end
end)

-- The text of an error value, without the position Lua puts before a string raised at level 1 or more.
local function error_text(err)
  if type(err) == "string" then return (err:gsub("^[^\n:]*:%d+: ", "")) end
  local meta = getmetatable(err)
  if meta and meta.__tostring then return tostring(err) end
  return nil
end

register({ "error", "errors", "has_error" }, 2, function(a)
  local fn, expected = a[1], a[2]
  if type(fn) ~= "function" and not spies.is_spy(fn) then
    error("bad argument #1 to 'assert.error' (function expected, got " .. type(fn) .. ")", 3)
  end
  local ok, err = pcall(fn)
  local holds
  if ok then holds = false
  elseif expected == nil then holds = true
  elseif type(expected) == "table" and type(err) == "table" then holds = (compare.same(expected, err))
  else holds = err == expected or error_text(err) == expected end
  return holds, function(negated)
    if negated then return "Expected no error, but caught:\n" .. format.value(err) end
    return "Expected a different error.\nCaught:\n" .. (ok and "(no error)" or format.value(err)) .. "\nExpected:\n"
      .. (expected == nil and "(an error)" or format.value(expected))
  end
end)

register({ "error_matches", "matches_error" }, 4, function(a)
  local fn, pattern = a[1], a[2]
  if type(fn) ~= "function" and not spies.is_spy(fn) then
    error("bad argument #1 to 'assert.error_matches' (function expected, got " .. type(fn) .. ")", 3)
  end
  local ok, err = pcall(fn)
  local text = not ok and error_text(err) or nil
  local holds = text ~= nil and text:find(pattern, a[3], a[4]) ~= nil
  return holds, function(negated)
    if negated then return "Expected no error matching " .. format.value(pattern) .. ", but caught:\n" .. format.value(err) end
    return "Expected a different error.\nCaught:\n" .. (ok and "(no error)" or format.value(err)) .. "\nExpected:\n" .. format.value(pattern)
  end
end, 3)

-- Spy assertions: the subject is the spy given to `assert.spy(s)` (or `assert.stub(s)`).
local function count_check(names, compare_counts, phrase)
  register(names, 1, function(a, state)
    local s = state.subject
    local count = #s.calls
    local wanted = a[1]
    if wanted == nil and phrase == "exactly" then
      -- `called()`: at least once.
      return count > 0, function(negated)
        if negated then return ("Expected not to be called, but was called %d time(s)"):format(count) end
        return "Expected to be called, but was called 0 time(s)"
      end
    end
    if math.type(wanted) ~= "integer" then
      error(("bad argument #1 to 'called%s' (a number of calls expected, got %s)"):format(
        phrase == "exactly" and "" or ("_" .. phrase:gsub(" ", "_")), type(wanted)), 3)
    end
    local holds = compare_counts(count, wanted)
    return holds, function(negated)
      if negated then return ("Expected not to be called %s %s time(s), but it was."):format(phrase, tostring(wanted)) end
      return ("Expected to be called %s%s time(s), but was called %d time(s)"):format(
        phrase == "exactly" and "" or (phrase .. " "), tostring(wanted), count)
    end
  end)
end
count_check({ "called" }, function(count, wanted) return count == wanted end, "exactly")
count_check({ "called_at_least" }, function(count, wanted) return count >= wanted end, "at least")
count_check({ "called_at_most" }, function(count, wanted) return count <= wanted end, "at most")
count_check({ "called_more_than" }, function(count, wanted) return count > wanted end, "more than")
count_check({ "called_less_than" }, function(count, wanted) return count < wanted end, "less than")

local function last_call_text(s, field)
  local call = s.calls[#s.calls]
  if call == nil then return "(no calls)" end
  return format.arguments(call[field] or { n = 0 })
end

register({ "called_with" }, math.huge, function(a, state)
  local s = state.subject
  return s:called_with(table.unpack(a, 1, a.n)), function(negated)
    return (negated and "Function was called with the arguments" or "Function was not called with the arguments")
      .. "\nCalled with (last call if any):\n" .. last_call_text(s, "args") .. "\nExpected:\n" .. format.arguments(a)
  end
end)

register({ "returned_with" }, math.huge, function(a, state)
  local s = state.subject
  return s:returned_with(table.unpack(a, 1, a.n)), function(negated)
    return (negated and "Function was returned with the arguments" or "Function was not returned with the arguments")
      .. "\nReturned (last call if any):\n" .. last_call_text(s, "results") .. "\nExpected:\n" .. format.arguments(a)
  end
end)

local spy_only = { called = true, called_at_least = true, called_at_most = true, called_more_than = true,
  called_less_than = true, called_with = true, returned_with = true }

-- A chain: the words read so far (negation, custom message, subject), then an assertion to call.
local chain_meta = {}

local function new_chain(state) return setmetatable({ state = state }, chain_meta) end

local function copy_state(state, changes)
  local copy = { negated = state.negated, message = state.message, subject = state.subject, has_subject = state.has_subject,
                 assertion = state.assertion, special = state.special, path = state.path }
  for k, v in pairs(changes) do copy[k] = v end
  return copy
end

-- Splits `name` into known words, longest first (so "error_matches" and "called_with" stay whole).
local function words_of(name)
  local parts = {}
  for part in name:gmatch("[^_]+") do parts[#parts + 1] = part end
  local words, i = {}, 1
  while i <= #parts do
    local found
    for j = #parts, i, -1 do
      local word = table.concat(parts, "_", i, j)
      if assertions[word] or fillers[word] or negators[word] or word == "spy" or word == "stub" or word == "message" then
        found = j
        words[#words + 1] = word
        break
      end
    end
    if not found then return nil, parts[i] end
    i = found + 1
  end
  return words
end

chain_meta.__index = function(chain, name)
  local state = chain.state
  if type(name) ~= "string" then error("assert: an assertion name must be a string", 2) end
  if state.assertion or state.special then
    error(("assert%s.%s: '%s' comes after an assertion; write the modifiers first"):format(state.path, name, name), 2)
  end
  -- luassert's words are case-insensitive: `assert.is.Not.True` (Lua keywords need a capital).
  local words, unknown = words_of(name:lower())
  if words == nil then
    error(("assert%s.%s does not exist ('%s' is neither an assertion nor a modifier)"):format(state.path, name, unknown), 2)
  end
  local changes = { path = state.path .. "." .. name }
  local negated = state.negated
  for index, word in ipairs(words) do
    if negators[word] then negated = not negated
    elseif assertions[word] then
      if index ~= #words then error(("assert%s: '%s' must be the last word"):format(changes.path, word), 2) end
      if spy_only[word] and not state.has_subject then
        error(("assert%s needs a spy: write assert.spy(s)%s"):format(changes.path, changes.path), 2)
      end
      changes.assertion = assertions[word]
    elseif word == "spy" or word == "stub" or word == "message" then
      if index ~= #words then error(("assert%s: '%s' must be the last word"):format(changes.path, word), 2) end
      changes.special = word
    end
  end
  changes.negated = negated
  return new_chain(copy_state(state, changes))
end

chain_meta.__call = function(chain, ...)
  local state = chain.state
  if state.special == "message" then
    return new_chain(copy_state(state, { special = false, message = (...), path = state.path .. "(...)" }))
  end
  if state.special == "spy" or state.special == "stub" then
    local subject = ...
    if not spies.is_spy(subject) then
      error(("bad argument #1 to 'assert.%s' (a spy or stub expected, got %s)"):format(state.special, type(subject)), 2)
    end
    return new_chain(copy_state(state, { special = false, subject = subject, has_subject = true, path = state.path .. "(...)" }))
  end
  local assertion = state.assertion
  if assertion == nil then
    if state.path == "" then
      -- Lua's own assert, raised at the caller's line (not this function's).
      if select("#", ...) == 0 then error("bad argument #1 to 'assert' (value expected)", 2) end
      local value, message = ...
      if value then return ... end
      if message == nil then message = "assertion failed!" end
      error(message, type(message) == "string" and 2 or 0)
    end
    error(("assert%s is not an assertion: add one (equal, same, truthy, ...)"):format(state.path), 2)
  end
  local args = table.pack(...)
  local message = state.message
  if assertion.arity ~= math.huge then
    local at = assertion.arity + 1
    for i = assertion.optional or at, math.min(args.n, assertion.arity) do
      if type(args[i]) == "string" then at = i break end
    end
    if args.n >= at then
      message = message or args[at]
      for i = at, args.n do args[i] = nil end
      args.n = at - 1
    end
  end
  local holds, explain = assertion.test(args, state)
  if holds == state.negated then
    local text = explain(state.negated)
    if message ~= nil then text = tostring(message) .. "\n" .. text end
    error(text, 2)
  end
  return ...
end

local root = new_chain({ negated = false, path = "" })
return root
