-- Argument matchers, as luassert's `match`: `match._` matches anything, `match.is_string()` a string,
-- `match.is_not_nil()`, `match.equals(v)`, `match.same(v)`, `match.matches(pattern)`,
-- `match.is_ref(t)`, `match.is_all_of(m...)`, `match.is_any_of(m...)`, `match.is_none_of(m...)`.
local format, compare = ...
local match = {}
local matcher_meta = { __name = "matcher" }
matcher_meta.__tostring = function(m) return "matcher " .. m.description end

local function make(description, test)
  return setmetatable({ description = description, test = test }, matcher_meta)
end

--- Whether `value` is a matcher.
function match.is_matcher(value)
  return getmetatable(value) == matcher_meta
end

local function is_type(kind) return function() return function(v) return type(v) == kind end end end

local builders = {
  string = is_type("string"), number = is_type("number"), table = is_type("table"),
  ["function"] = is_type("function"), boolean = is_type("boolean"), userdata = is_type("userdata"),
  thread = is_type("thread"),
  ["nil"] = function() return function(v) return v == nil end end,
  truthy = function() return function(v) return v ~= nil and v ~= false end end,
  falsy = function() return function(v) return v == nil or v == false end end,
  ["true"] = function() return function(v) return v == true end end,
  ["false"] = function() return function(v) return v == false end end,
  equals = function(expected) return function(v) return v == expected end end,
  same = function(expected) return function(v) return (compare.same(expected, v)) end end,
  ref = function(expected) return function(v) return rawequal(v, expected) end end,
  matches = function(pattern, init, plain)
    return function(v) return type(v) == "string" and v:find(pattern, init, plain) ~= nil end
  end,
  all_of = function(...)
    local ms = table.pack(...)
    return function(v) for i = 1, ms.n do if not ms[i].test(v) then return false end end return true end
  end,
  any_of = function(...)
    local ms = table.pack(...)
    return function(v) for i = 1, ms.n do if ms[i].test(v) then return true end end return false end
  end,
  none_of = function(...)
    local ms = table.pack(...)
    return function(v) for i = 1, ms.n do if ms[i].test(v) then return false end end return true end
  end,
}
builders.equal = builders.equals
builders.match = builders.matches

match._ = make("_", function() return true end)

setmetatable(match, {
  __index = function(_, name)
    if type(name) ~= "string" then return nil end
    local negated, rest = false, name:lower()
    local words = {}
    for word in rest:gmatch("[^_]+") do words[#words + 1] = word end
    local i = 1
    while words[i] == "is" or words[i] == "not" or words[i] == "no" do
      if words[i] ~= "is" then negated = not negated end
      i = i + 1
    end
    local base = table.concat(words, "_", i)
    local builder = builders[base]
    if builder == nil then error("match." .. name .. " does not exist", 2) end
    return function(...)
      local test = builder(...)
      local args = table.pack(...)
      local shown = {}
      for k = 1, args.n do shown[k] = match.is_matcher(args[k]) and args[k].description or format.value(args[k]) end
      local description = name .. "(" .. table.concat(shown, ", ") .. ")"
      if negated then return make(description, function(v) return not test(v) end) end
      return make(description, test)
    end
  end,
})

--- Whether the argument `actual` satisfies `expected`: a matcher's test, else deep sameness.
function match.argument(expected, actual)
  if match.is_matcher(expected) then return expected.test(actual) end
  return (compare.same(expected, actual))
end

return match
