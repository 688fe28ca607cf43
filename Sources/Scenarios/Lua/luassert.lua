-- The `assert` object, as luassert's users hold it. Called, it is Lua's assert (with luassert's
-- `assert:level(n)` as an optional third argument). Indexed, it starts a chain of words
-- (chains.lua); calling a chain runs the assertion its words name, after the modifiers (`is`, `not`,
-- ...) have set up the call's state, or, when no assertion is named (`assert.spy(s)`,
-- `assert.message(m)`, `assert.array(t)`), runs the modifiers with the arguments and returns a chain
-- that carries the state they set.
--
-- An assertion is `callback(state, args, level)` answering whether it holds (and, optionally, a list
-- of values to return instead of its arguments); `state.mod` is false when negated. When the outcome
-- is not the wanted one, the message named by the assertion's positive (or negative) key is looked up
-- through `say`, filled with the arguments as the formatters show them, and raised with the custom
-- message, if any, on the line before.
--
-- The methods: register/unregister, add_formatter/remove_formatter/format, set_parameter/
-- get_parameter, add_spy, snapshot, level/get_level.
local chains, state, say, util = ...

local engine = {}

--- Raises an assertion's failure. The runner may replace it (to tell failures from errors).
function engine.fail(message, level)
  error(message, level + 1)
end

local obj = {}
local chain_meta = {}
local level_meta = {}

-- The text of a failure: the custom message (as text) over the assertion's own message.
local function failure_text(message_key, custom, args)
  if custom ~= nil then
    if util.hastostring(custom) then custom = tostring(custom) else custom = state.format_argument(custom) end
  end
  local message = say(message_key, obj:format(args))
  if message and custom then return custom .. "\n" .. message end
  return message or custom
end

chain_meta.__index = chains.extend

chain_meta.__call = function(node, ...)
  local assertion, modifiers = chains.resolve(node, "assertion")
  local call_state = chains.state(node)
  if assertion then
    for i = 1, #modifiers do modifiers[i].callback(call_state) end
    local args = util.make_arglist(...)
    local holds, returned = assertion.callback(call_state, args, 3)
    if (not holds) == call_state.mod then
      local key = call_state.mod and assertion.positive_message or assertion.negative_message
      local text = failure_text(key, rawget(call_state, "failure_message"), args)
      engine.fail(text or "assertion failed!", 2)
    end
    if returned then return util.unpack(returned) end
    return ...
  end
  local args = util.make_arglist(...)
  for i = 1, #modifiers do modifiers[i].callback(call_state, args, 3) end
  return chains.bound(chain_meta, call_state)
end

local root = setmetatable({ {}, false }, chain_meta)

--- A new chain with no words (luassert's `assert.state()`).
function obj.state() return setmetatable({ {}, false }, chain_meta) end

--- Adds an assertion, matcher or modifier: `namespace` is "assertion", "matcher" or "modifier";
--- the messages are `say` keys.
function obj:register(namespace, name, callback, positive_message, negative_message)
  chains.register(namespace, name, callback, positive_message, negative_message)
end

function obj:unregister(namespace, name)
  chains.unregister(namespace, name)
end

--- Adds a formatter, `fn(value, extra)` returning the value's text or nil, asked before the others.
function obj:add_formatter(formatter) state.add_formatter(formatter) end
function obj:remove_formatter(formatter) state.remove_formatter(formatter) end

--- Formats the list `args` in place (up to `args.n`), leaving out the indices marked in `args.nofmt`
--- and giving each formatter `args.fmtargs[i]`; returns it.
function obj:format(args)
  local nofmt = args.nofmt or {}
  local fmtargs = args.fmtargs or {}
  for i = 1, args.n or #args do
    if not nofmt[i] then
      local value = args[i]
      local text = state.format_argument(value, fmtargs[i])
      if text == nil then text = tostring(value) end
      args[i] = text
    end
  end
  return args
end

function obj:set_parameter(name, value) state.set_parameter(name, value) end
function obj:get_parameter(name) return state.get_parameter(name) end
function obj:add_spy(s) state.add_spy(s) end
function obj:snapshot() return state.snapshot() end

--- An error level for `assert(v, message, assert:level(n))`.
function obj:level(level) return setmetatable({ level = level }, level_meta) end

--- The level `value` holds, or nil when it is not one made by `level`.
function obj:get_level(value)
  if getmetatable(value) ~= level_meta then return nil end
  return value.level
end

setmetatable(obj, {
  __call = function(self, value, message, level, ...)
    if not value then
      error(message or "assertion failed!", (self:get_level(level) or 1) + 1)
    end
    return value, message, level, ...
  end,
  __index = function(_, key) return root[key] end,
})

engine.assert = obj
engine.chain_meta = chain_meta
return engine
