-- What `envscript repl` needs from Lua: values shown as Lua would write them, and the names that
-- complete a word. Nothing here runs a metamethod except __tostring and __name (for host objects),
-- and those under pcall.
local repl = {}

local keywords = {
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
  "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
}

local function is_identifier(key)
  return type(key) == "string" and key:match("^[%a_][%w_]*$") ~= nil
end

local function sorted_keys(t)
  local keys = {}
  for k in next, t do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "number" or ta == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  return keys
end

local function scalar(value)
  local kind = type(value)
  if kind == "string" then return (("%q"):format(value):gsub("\\\n", "\\n")) end
  if kind == "number" or kind == "boolean" or kind == "nil" then return tostring(value) end
  -- Host objects and tables with __tostring show as they describe themselves.
  local ok, text = pcall(tostring, value)
  if ok and type(text) == "string" then return text end
  return "<" .. kind .. ">"
end

local function shown(value, indent, depth, seen)
  if type(value) ~= "table" then return scalar(value) end
  local meta = getmetatable(value)
  if type(meta) == "table" and rawget(meta, "__tostring") then return scalar(value) end
  if seen[value] then return "<cycle>" end
  if depth > 5 then return "{ ... }" end
  seen[value] = true
  local parts = {}
  local count = 0
  while rawget(value, count + 1) ~= nil do
    count = count + 1
    parts[#parts + 1] = shown(rawget(value, count), indent .. "  ", depth + 1, seen)
  end
  for _, k in ipairs(sorted_keys(value)) do
    if not (math.type(k) == "integer" and k >= 1 and k <= count) then
      local key = is_identifier(k) and k or ("[" .. scalar(k) .. "]")
      parts[#parts + 1] = key .. " = " .. shown(rawget(value, k), indent .. "  ", depth + 1, seen)
    end
  end
  seen[value] = nil
  if #parts == 0 then return "{}" end
  local one_line = "{ " .. table.concat(parts, ", ") .. " }"
  if #one_line <= 72 and not one_line:find("\n") then return one_line end
  return "{\n" .. indent .. "  " .. table.concat(parts, ",\n" .. indent .. "  ") .. ",\n" .. indent .. "}"
end

--- The values a statement returned, as the REPL prints them: separated by tabs, nil when none.
function repl.show(...)
  local count = select("#", ...)
  if count == 0 then return nil end
  local texts = {}
  for i = 1, count do texts[i] = shown((select(i, ...)), "", 1, {}) end
  return table.concat(texts, "\t")
end

-- The table a dotted path names, through tables and the __index tables of metatables.
local function field(t, key)
  if type(t) ~= "table" then
    local meta = getmetatable(t)
    local index = type(meta) == "table" and rawget(meta, "__index") or nil
    return type(index) == "table" and rawget(index, key) or nil
  end
  local value = rawget(t, key)
  if value ~= nil then return value end
  local meta = getmetatable(t)
  local index = type(meta) == "table" and rawget(meta, "__index") or nil
  if type(index) == "table" then return rawget(index, key) end
  return nil
end

local string_methods = string

local function names_of(t, out, methods_only)
  -- A string's methods are the string library's (the sandbox hides the strings' metatable).
  if type(t) == "string" then t = string_methods end
  local visited = {}
  while t ~= nil and not visited[t] do
    visited[t] = true
    if type(t) == "table" then
      for k, v in next, t do
        if is_identifier(k) and (not methods_only or type(v) == "function") then out[k] = true end
      end
    end
    local meta = getmetatable(t)
    local index = type(meta) == "table" and rawget(meta, "__index") or nil
    t = type(index) == "table" and index or nil
  end
end

--- Runs a compiled statement and shows what it returned.
function repl.run(chunk)
  return repl.show(chunk())
end

--- The words that complete `word`: a global or keyword, or a field (`a.b.pre`) or method (`a:pre`)
--- of what the path before it names; sorted.
function repl.complete(word)
  local path, separator, partial = word:match("^(.*)([%.:])([%w_]*)$")
  local names = {}
  if not path then
    partial = word
    names_of(_G, names)
    for _, keyword in ipairs(keywords) do names[keyword] = true end
  else
    local target = _G
    for part in (path .. "."):gmatch("([^%.:]*)[%.:]") do
      if part == "" then return {} end
      target = field(target, part)
      if target == nil then return {} end
    end
    names_of(target, names, separator == ":")
  end
  local found = {}
  for name in next, names do
    if name:sub(1, #partial) == partial then found[#found + 1] = (path and (path .. separator) or "") .. name end
  end
  table.sort(found)
  return found
end

return repl
