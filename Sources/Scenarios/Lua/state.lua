-- The assert engine's state as a stack of levels, as luassert keeps it: each level holds the
-- formatters added, the parameters set and the spies made since it began; `assert:snapshot()` begins
-- a level and its `revert()` ends it (and every level after it), so a test can change formatters and
-- parameters and spy on modules, and undo all of it at once. Lookups walk from the newest level down.
local state = {}

local level_meta = {}
-- A parameter set to nil still hides the levels below it.
local unset = setmetatable({}, { __name = "unset" })
local current

--- Ends level `level` (the newest when nil) and every level after it: its spies are reverted.
function state.revert(level)
  if level == nil then
    level = current
    if level.previous == nil then return end
  end
  if getmetatable(level) ~= level_meta then error("Value provided is not a valid snapshot", 2) end
  if level.previous == nil then return end
  if level.next then level.next:revert() end
  level.formatters = {}
  level.parameters = {}
  local spies = level.spies
  for s in pairs(spies) do
    spies[s] = nil
    s:revert()
  end
  -- An ended level is no snapshot any more: reverting it again is an error.
  setmetatable(level, nil)
  current = level.previous
  current.next = nil
end

level_meta.__call = function(level) return state.revert(level) end

--- Begins a level and returns it (`previous`, `next`, `formatters`, `parameters`, `revert`).
function state.snapshot()
  local level = setmetatable({
    formatters = {},
    parameters = {},
    -- Weak: a spy nobody holds any more need not be reverted.
    spies = setmetatable({}, { __mode = "kv" }),
    previous = current,
    revert = state.revert,
  }, level_meta)
  if current then current.next = level end
  current = level
  return level
end

--- Adds a formatter to the newest level; it is asked before every older one.
function state.add_formatter(formatter)
  table.insert(current.formatters, 1, formatter)
end

--- Removes `formatter` from every level that has it.
function state.remove_formatter(formatter)
  local level = current
  while level do
    for i, f in ipairs(level.formatters) do
      if f == formatter then table.remove(level.formatters, i) break end
    end
    level = level.previous
  end
end

--- The text the newest formatter that knows `value` gives for it, or nil.
function state.format_argument(value, extra)
  local level = current
  while level do
    local formatters = level.formatters
    for i = 1, #formatters do
      local text = formatters[i](value, extra)
      if text ~= nil then return text end
    end
    level = level.previous
  end
  return nil
end

function state.set_parameter(name, value)
  if value == nil then value = unset end
  current.parameters[name] = value
end

function state.get_parameter(name)
  local level = current
  while level do
    local value = level.parameters[name]
    if value ~= nil then
      if value == unset then return nil end
      return value
    end
    level = level.previous
  end
  return nil
end

--- Records a spy in the newest level, so that reverting the level reverts the spy.
function state.add_spy(s)
  current.spies[s] = true
end

-- The base level, which holds the defaults and is never reverted.
state.snapshot()

return state
