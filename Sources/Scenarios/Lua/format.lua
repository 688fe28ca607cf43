-- Values as luassert's messages show them: "(number) 1", "(string) 'text'", and tables over several
-- lines with the keys sorted; `marks` (a list of keys) puts a '*' before each key on the path to a
-- difference, so a nested failure points at its place.
local format = {}

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta == tb and (ta == "number" or ta == "string") then return a < b end
    if ta ~= tb then return ta < tb end
    return tostring(a) < tostring(b)
  end)
  return keys
end
format.sorted_keys = sorted_keys

local function scalar(value)
  local kind = type(value)
  if kind == "string" then return "'" .. value .. "'" end
  if math.type(value) == "float" then
    local text = ("%.17g"):format(value)
    if tonumber(("%.15g"):format(value)) == value then text = ("%.15g"):format(value) end
    return text:find("[%.eEni]") and text or (text .. ".0")
  end
  return tostring(value)
end

local function key_text(k)
  if type(k) == "string" then return k end
  return scalar(k)
end

local function body(t, indent, marks, depth, seen)
  if seen[t] then return "<cycle>" end
  if depth > 6 then return "{ ... }" end
  local keys = sorted_keys(t)
  if #keys == 0 then return "{ }" end
  seen[t] = true
  local mark = marks and marks[depth]
  local lines = {}
  for _, k in ipairs(keys) do
    local v = t[k]
    local on_path = marks ~= nil and mark ~= nil and rawequal(k, mark)
    local prefix = indent:sub(1, -2) .. (on_path and "*" or " ")
    local text
    if type(v) == "table" then
      text = body(v, indent .. "  ", on_path and marks or nil, depth + 1, seen)
    else
      text = scalar(v)
    end
    lines[#lines + 1] = prefix .. "[" .. key_text(k) .. "] = " .. text
  end
  seen[t] = nil
  return "{\n" .. table.concat(lines, "\n") .. " }"
end

--- The value as a failure message shows it; `marks` is the path to a difference inside a table.
function format.value(value, marks)
  local kind = type(value)
  if kind == "nil" then return "(nil)" end
  if kind == "table" then
    if getmetatable(value) and getmetatable(value).__tostring then
      return "(table) " .. tostring(value)
    end
    return "(table) " .. body(value, "  ", marks, 1, {})
  end
  if kind == "function" or kind == "thread" or kind == "userdata" then return "(" .. kind .. ") " .. tostring(value) end
  return "(" .. kind .. ") " .. scalar(value)
end

--- A list of arguments, one per line, numbered.
function format.arguments(args)
  if args.n == 0 then return "(no arguments)" end
  local lines = {}
  for i = 1, args.n do lines[#lines + 1] = ("(%d) %s"):format(i, format.value(args[i])) end
  return table.concat(lines, "\n")
end

--- The path of keys as Lua would write it: `.name` or `[1]`.
function format.path(marks)
  local parts = {}
  for _, k in ipairs(marks) do
    if type(k) == "string" and k:match("^[%a_][%w_]*$") then parts[#parts + 1] = "." .. k
    else parts[#parts + 1] = "[" .. scalar(k) .. "]" end
  end
  return table.concat(parts)
end

return format
