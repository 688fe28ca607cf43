-- The formatters luassert starts with, which show values in failure messages: "(number) 1",
-- "(string) 'text'", "(nil)", tables over several lines with their keys sorted (array part first,
-- then by type), matchers as "(matcher) is.string()", argument lists as "(values list) (...)".
--
-- Parameters read when a table is shown: "TableFormatLevel" (depth shown, -1 for all),
-- "TableFormatShowRecursion" (a table inside itself shown as "{ ... recursive }"),
-- "TableErrorHighlightCharacter" and "TableErrorHighlightColor" (the mark put before each key on the
-- path to a difference, its `crumbs`, given by `assert.same`).
local assert, util, match = ...

-- ANSI colours by name ("red", "bright.red"): the highlight colour, when the user asks for one.
local codes = { black = 30, red = 31, green = 32, yellow = 33, blue = 34, magenta = 35, cyan = 36, white = 37 }
local function colour(name, text)
  if name == nil or name == "none" then return text end
  local prefix = ""
  for word in name:gmatch("[^%.]+") do
    if word == "bright" then prefix = prefix .. "\27[1m"
    elseif codes[word] then prefix = prefix .. "\27[" .. codes[word] .. "m" end
  end
  return prefix .. text .. "\27[0m"
end

-- Numbers exactly enough to tell them apart, floats always with a point, and NaN/Inf by name.
local function number_text(value)
  if type(value) ~= "number" then return tostring(value) end
  if value ~= value then return "NaN" end
  if value == math.huge then return "Inf" end
  if value == -math.huge then return "-Inf" end
  local text = ("%.20g"):format(value)
  if math.type(value) == "float" and not text:find("[%.,]") then
    text = text:gsub("%d+", "%0.0", 1)
  end
  return text
end

local function format_string(value)
  if type(value) == "string" then return "(string) '" .. value .. "'" end
end

local function format_number(value)
  if type(value) == "number" then return "(number) " .. number_text(value) end
end

local function format_boolean(value)
  if type(value) == "boolean" then return "(boolean) " .. tostring(value) end
end

local function format_nil(value)
  if value == nil then return "(nil)" end
end

-- Keys in the array part first (by index), then numbers, booleans (true first), strings, tables,
-- functions, userdata and threads.
local rank_of_type = { number = 1, boolean = 2, string = 3, table = 4, ["function"] = 5, userdata = 6, thread = 7 }

local function sorted_keys(t)
  local keys = {}
  for k in next, t do keys[#keys + 1] = k end
  local length = #t
  local function rank(k)
    if math.type(k) == "integer" and k >= 1 and k <= length then return 0 end
    if type(k) == "number" and k >= 1 and k <= length and k % 1 == 0 then return 0 end
    return rank_of_type[type(k)] or 8
  end
  table.sort(keys, function(a, b)
    local ra, rb = rank(a), rank(b)
    if ra ~= rb then return ra < rb end
    local kind = type(a)
    if kind == "string" or kind == "number" then return a < b end
    if kind == "boolean" then return a == true and b == false end
    return false
  end)
  return keys
end

-- The table's own address: a `__tostring` is stepped around, and a protected metatable (which cannot
-- be stepped around) shows as plain "(table)".
local function table_heading(t)
  local meta = getmetatable(t)
  if meta == nil then return "(" .. tostring(t) .. ") " end
  if not pcall(setmetatable, t, meta) then return "(table) " end
  setmetatable(t, nil)
  local heading = "(" .. tostring(t) .. ") "
  setmetatable(t, meta)
  return heading
end

local function format_table(value, extra)
  if type(value) ~= "table" then return end
  local max_depth = assert:get_parameter("TableFormatLevel")
  local show_recursion = assert:get_parameter("TableFormatShowRecursion")
  local mark = assert:get_parameter("TableErrorHighlightCharacter") or ""
  local mark_colour = assert:get_parameter("TableErrorHighlightColor")
  local crumbs = extra and extra.crumbs or {}
  -- How many times each table is open on the way down (a table may hold itself).
  local open = {}

  local function body(t, depth, on_path)
    if show_recursion and (open[t] or 0) > 0 then return "{ ... recursive }" end
    if next(t) == nil then return "{ }" end
    if max_depth >= 0 and depth > max_depth then return "{ ... more }" end
    open[t] = (open[t] or 0) + 1
    local crumb = crumbs[#crumbs - depth + 1]
    local lines = {}
    for _, k in ipairs(sorted_keys(t)) do
      local v = t[k]
      local marked = on_path and k == crumb
      if type(v) == "table" then v = body(v, depth + 1, marked)
      elseif type(v) == "string" then v = "'" .. v .. "'" end
      local sign = marked and mark or ""
      local indent = (" "):rep(depth * 2 - #sign)
      lines[#lines + 1] = "\n" .. indent .. (sign == "" and "" or colour(mark_colour, sign))
        .. "[" .. number_text(k) .. "] = " .. number_text(v)
    end
    open[t] = open[t] - 1
    return "{" .. table.concat(lines) .. " }"
  end

  return table_heading(value) .. body(value, 1, true)
end

-- Taken when the part loads: a script may change the global later.
local getinfo = debug.getinfo

local function format_function(value)
  if type(value) == "function" then
    -- As luassert shows a function: where it was defined (the sandbox keeps debug.getinfo).
    local info = getinfo(value, "S")
    return string.format("%s @ line %s in %s", tostring(value), tostring(info.linedefined), tostring(info.source))
  end
end

local function format_userdata(value)
  if type(value) == "userdata" then return "(userdata) '" .. tostring(value) .. "'" end
end

local function format_thread(value)
  if type(value) == "thread" then return "(thread) '" .. tostring(value) .. "'" end
end

local function format_matcher(value)
  if not match.is_matcher(value) then return end
  local shown = {}
  for i = 1, value.arguments.n do shown[i] = assert:format({ value.arguments[i], n = 1 })[1] end
  return ("(matcher) %s%s(%s)"):format(value.mod and "is." or "no.", tostring(value.name), table.concat(shown, ", "))
end

local function format_arglist(value)
  if not util.is_arglist(value) then return end
  local shown = {}
  for i = 1, value.n do shown[i] = assert:format({ value[i], n = 1 })[1] end
  return "(values list) (" .. table.concat(shown, ", ") .. ")"
end

-- Added in reverse: the last added is asked first, so argument lists and matchers come before tables.
for _, formatter in ipairs({ format_string, format_number, format_boolean, format_nil, format_table,
  format_function, format_userdata, format_thread, format_matcher, format_arglist }) do
  assert:add_formatter(formatter)
end

assert:set_parameter("TableFormatLevel", 3)
assert:set_parameter("TableFormatShowRecursion", false)
assert:set_parameter("TableErrorHighlightCharacter", "*")
-- Failure messages go to reports and logs as often as to a terminal: no colour unless asked for.
assert:set_parameter("TableErrorHighlightColor", "none")
