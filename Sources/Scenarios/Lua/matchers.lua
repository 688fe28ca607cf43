-- Argument matchers, as luassert's `match`: `match.is_string()`, `match.is.Not.Nil()`,
-- `match.equals.Not(1)`, `match.near(1, 0.1)`, `match.has_match("^a")`, `match.is_ref(t)`,
-- `match.all_of(m...)`, and `match._`, which matches anything. A matcher is callable:
-- `match.is_string()("x")` is true. Spies compare recorded arguments with them, stubs choose their
-- answer with them (`on_call_with`), and users add their own with `assert:register("matcher", ...)`:
-- `callback(state, args, level)` returns the test, a function of one value.
local chains, assert, util, compare, say = ...

local match = {}
local matcher_meta = { __name = "matcher" }
matcher_meta.__call = function(self, value) return self.callback(value) == self.mod end

local chain_meta = { __index = chains.extend }
chain_meta.__call = function(node, ...)
  local matcher, modifiers = chains.resolve(node, "matcher")
  local call_state = chains.state(node)
  local args = util.make_arglist(...)
  if matcher then
    for i = 1, #modifiers do modifiers[i].callback(call_state) end
    local test = matcher.callback(call_state, args, 3)
    return setmetatable({ name = matcher.name, mod = call_state.mod, callback = test, arguments = args }, matcher_meta)
  end
  for i = 1, #modifiers do modifiers[i].callback(call_state, args, 3) end
  return chains.bound(chain_meta, call_state)
end

local root = setmetatable({ {}, false }, chain_meta)

match._ = setmetatable({ name = "_", mod = true, callback = function() return true end, arguments = { n = 0 } },
  matcher_meta)

--- A new matcher chain with no words.
function match.state() return setmetatable({ {}, false }, chain_meta) end

function match.is_matcher(value) return getmetatable(value) == matcher_meta end

--- Whether `value` is a `match.is_ref` matcher: it compares the values given, not their copies.
function match.is_ref_matcher(value) return getmetatable(value) == matcher_meta and value.name == "ref" end

setmetatable(match, { __index = function(_, key) return root[key] end })

util.is_matcher = match.is_matcher
util.is_ref_matcher = match.is_ref_matcher

-- Argument checks, raised at the line that made the matcher.
local function at_least(name, count, args)
  if args.n < count then
    error(say("assertion.internal.argtolittle", { name, count, tostring(args.n) }), 4)
  end
end

local function bad_argument(index, name, expected, got)
  error(say("assertion.internal.badargtype", { index, name, expected, got }), 4)
end

local function shown(value) return assert:format({ value, n = 1 })[1] end

local function type_matcher(kind)
  return function() return function(value) return type(value) == kind end end
end
for _, kind in ipairs({ "nil", "boolean", "number", "string", "table", "function", "userdata", "thread" }) do
  assert:register("matcher", kind, type_matcher(kind))
end

assert:register("matcher", "true", function() return function(value) return value == true end end)
assert:register("matcher", "false", function() return function(value) return value == false end end)
assert:register("matcher", "truthy", function() return function(value) return value ~= nil and value ~= false end end)
assert:register("matcher", "falsy", function() return function(value) return value == nil or value == false end end)

local function equals(_, args)
  at_least("equals", 1, args)
  local expected = args[1]
  return function(value) return value == expected end
end
assert:register("matcher", "equals", equals)
assert:register("matcher", "equal", equals)

assert:register("matcher", "same", function(_, args)
  at_least("same", 1, args)
  local expected = args[1]
  return function(value)
    if type(value) == "table" and type(expected) == "table" then return (compare.deep(value, expected, true)) end
    return value == expected
  end
end)

local object_types = { table = true, ["function"] = true, thread = true, userdata = true }
assert:register("matcher", "ref", function(_, args)
  at_least("ref", 1, args)
  local expected = args[1]
  if not object_types[type(expected)] then bad_argument(1, "ref", "object", type(expected)) end
  return function(value) return rawequal(value, expected) end
end)

local function matches(_, args)
  at_least("matches", 1, args)
  local pattern, init, plain = args[1], args[2], args[3]
  if type(pattern) ~= "string" then bad_argument(1, "matches", "string", type(pattern)) end
  if init ~= nil and not tonumber(init) then bad_argument(2, "matches", "number", type(init)) end
  return function(value)
    local kind = type(value)
    if kind ~= "string" and kind ~= "number" and not (kind == "table" and util.hastostring(value)) then return false end
    return tostring(value):find(pattern, init, plain) ~= nil
  end
end
assert:register("matcher", "matches", matches)
assert:register("matcher", "match", matches)

assert:register("matcher", "near", function(_, args)
  at_least("near", 2, args)
  local expected, tolerance = tonumber(args[1]), tonumber(args[2])
  local kind = "number or object convertible to a number"
  if not expected then bad_argument(1, "near", kind, shown(args[1])) end
  if not tolerance then bad_argument(2, "near", kind, shown(args[2])) end
  return function(value)
    local actual = tonumber(value)
    return actual ~= nil and actual >= expected - tolerance and actual <= expected + tolerance
  end
end)

assert:register("matcher", "unique", function(_, args)
  local deep = args[1]
  return function(list)
    for k, v in pairs(list) do
      for k2, v2 in pairs(list) do
        if k ~= k2 and ((deep and compare.deep(v, v2, true)) or v == v2) then return false end
      end
    end
    return true
  end
end)

-- Composites: every argument must be a matcher.
local function composite(name, combine)
  assert:register("matcher", name, function(_, args)
    at_least(name, 1, args)
    for i = 1, args.n do
      if not match.is_matcher(args[i]) then bad_argument(1, name, "matcher", type(args[i])) end
    end
    return function(value) return combine(args, value) end
  end)
end
composite("none_of", function(ms, value)
  for i = 1, ms.n do if ms[i](value) then return false end end
  return true
end)
composite("any_of", function(ms, value)
  for i = 1, ms.n do if ms[i](value) then return true end end
  return false
end)
composite("all_of", function(ms, value)
  for i = 1, ms.n do if not ms[i](value) then return false end end
  return true
end)

return match
