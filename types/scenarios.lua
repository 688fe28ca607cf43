---@meta
-- Scenario globals of `envscript run`: busted's declarations, luassert's assert, spies, stubs,
-- mocks and matchers (see "Scenarios: busted and luassert" in the command-line guide, CommandLineTool.md).

--- Declares a group of tests; its body runs when the run reaches it, after the tests before it (as in busted).
---@param name string
---@param body fun()
function describe(name, body) end
context = describe

--- A group whose changes to the globals are undone when it is left.
---@param name string
---@param body fun()
function insulate(name, body) end

--- A group whose changes to the globals outlive the insulation around it.
---@param name string
---@param body fun()
function expose(name, body) end

--- Declares a test; `#tag` words in its name are tags (`--tags`, `--exclude-tags`).
---@param name string
---@param body fun()
function it(name, body) end

--- Declares a test still to write; it is reported as skipped.
---@param name string
function pending(name) end

--- Runs before each test of the enclosing block (outer hooks first).
---@param hook fun()
function before_each(hook) end

--- Runs after each test of the enclosing block, even a failed one (inner hooks first).
---@param hook fun()
function after_each(hook) end

--- Runs when the block is entered (before its first selected test).
---@param hook fun()
function setup(hook) end
strict_setup = setup

--- Runs when the block is left.
---@param hook fun()
function teardown(hook) end
strict_teardown = teardown

--- Runs before the first test of the block that runs, if one does.
---@param hook fun()
function lazy_setup(hook) end

--- Runs when the block is left, if one of its tests ran.
---@param hook fun()
function lazy_teardown(hook) end

--- Inside `it` (only there, as in busted): runs after the test's body, failed or not.
---@param fn fun()
function finally(fn) end

--- Shuffles the tests and blocks of the enclosing block (or file), as busted does:
--- `randomize()`, `randomize(seed)`, `randomize(true, seed)`; `randomize(false)` turns it off.
---@param on_or_seed? boolean|integer
---@param seed? integer
function randomize(on_or_seed, seed) end
spec = it
test = it

--- luassert's assert: assertions through chains of words (`assert.are.same`, `assert.is_not.equal`,
--- `assert.has_no.errors`, `assert.equals.Not`, `assert.spy(s).was.called.at_least(2)`), the words
--- split at `_` and read case-insensitively (`assert.is.Not.Nil`). Called, it is Lua's assert, with
--- `assert:level(n)` as an optional third argument. Each assertion takes a custom message after its
--- own arguments and returns its arguments (`has_error`: the error caught; `matches`: the captures).
---@class scenario.assert
---@overload fun(value: any, message?: any, level?: any, ...): any
---@field is scenario.assert
---@field are scenario.assert
---@field is_not scenario.assert
---@field are_not scenario.assert
---@field has scenario.assert
---@field has_no scenario.assert
---@field does scenario.assert
---@field does_not scenario.assert
---@field was scenario.assert
---@field was_not scenario.assert
---@field no scenario.assert
---@field Not scenario.assert
assert = {}

--- `expected == actual`.
---@param expected any
---@param actual any
---@param message? any
function assert.equal(expected, actual, message) end
assert.equals = assert.equal

--- Deeply equal values; a failure marks the path to the first difference with `*`.
---@param expected any
---@param actual any
---@param message? any
function assert.same(expected, actual, message) end

---@param value any
---@param message? any
function assert.truthy(value, message) end

---@param value any
---@param message? any
function assert.falsy(value, message) end

---@param value any
---@param message? any
function assert.is_true(value, message) end

---@param value any
---@param message? any
function assert.is_false(value, message) end

---@param value any
---@param message? any
function assert.is_nil(value, message) end

---@param value any
---@param message? any
function assert.is_not_nil(value, message) end

---@param expected number|string
---@param actual number|string
---@param tolerance number|string
---@param message? any
function assert.near(expected, actual, tolerance, message) end

--- Returns the captures (or the pattern, for a plain find).
---@param pattern string
---@param actual string|number
---@param init? integer
---@param plain? boolean
---@param message? any
---@return ...
function assert.matches(pattern, actual, init, plain, message) end
assert.has_match = assert.matches

--- The function (or callable table) raises an error (equal to `expected`, without its position,
--- when given). Returns the error caught and `expected`.
---@param fn function|table
---@param expected? any
---@param message? any
---@return any, any
function assert.has_error(fn, expected, message) end

--- The error raised matches `pattern`; returns its captures.
---@param fn function|table
---@param pattern string
---@param init? integer
---@param plain? boolean
---@param message? any
---@return ...
function assert.error_matches(fn, pattern, init, plain, message) end

---@param list table
---@param deep? boolean
---@param message? any
function assert.unique(list, deep, message) end

--- The count of values after `count` is `count`.
---@param count integer
function assert.returned_arguments(count, ...) end

--- A custom message put before the failure of the assertion that follows.
---@param text any
---@return scenario.assert
function assert.message(text) end

--- Assertions about a spy's calls: `.was.called(n)`, `.was.called.at_least(n)`,
--- `.was.called_with(...)`, `.was.returned_with(...)`; `message` goes before a failure.
---@param s scenario.spy
---@param message? any
---@return scenario.assert
function assert.spy(s, message) end
assert.stub = assert.spy

--- `assert.array(t).has.no.holes([length])`; `holes` returns the first missing index.
---@param t table
---@return scenario.assert
function assert.array(t) end

--- Adds an assertion, matcher or modifier: `callback(state, arguments, level)`; the messages are
--- `say` keys (`require("say"):set(key, text)`).
---@param namespace "assertion"|"matcher"|"modifier"
---@param name string
---@param callback function
---@param positive_message? string
---@param negative_message? string
function assert:register(namespace, name, callback, positive_message, negative_message) end
---@param namespace "assertion"|"matcher"|"modifier"
---@param name string
function assert:unregister(namespace, name) end
--- A formatter shows a value in failure messages (nil: not mine); the newest is asked first.
---@param formatter fun(value: any, extra?: table): string?
function assert:add_formatter(formatter) end
---@param formatter function
function assert:remove_formatter(formatter) end
--- Formats `args[1..args.n]` in place.
---@param args table
---@return table
function assert:format(args) end
--- "TableFormatLevel", "TableFormatShowRecursion", "TableErrorHighlightCharacter",
--- "TableErrorHighlightColor", or one of the user's.
---@param name string
---@param value any
function assert:set_parameter(name, value) end
---@param name string
---@return any
function assert:get_parameter(name) end
--- A level of the assert state: its `revert()` undoes the formatters, parameters and spies since.
---@return { revert: fun(self), previous: table?, next: table? }
function assert:snapshot() end
---@param level integer
---@return table
function assert:level(level) end
---@return integer?
function assert:get_level(value) end

---@class scenario.call
---@field vals table the values as they were (deep copies), with `n`
---@field refs table the values themselves, with `n`

---@class scenario.spy
---@overload fun(...): ...
---@field calls scenario.call[]
---@field returnvals scenario.call[]
---@field callback function
local scenario_spy = {}
--- Puts back what was replaced; returns it (a stub: the original value, maybe nil).
---@return any
function scenario_spy:revert() end
---@return scenario.spy
function scenario_spy:clear() end

---@class scenario.stub: scenario.spy
--- The stub answers these values (call with a dot: `stub(t, k).returns(v)`).
---@field returns fun(...): scenario.stub
--- The stub calls `fn` with the arguments (call with a dot).
---@field invokes fun(fn: function|table): scenario.stub
---@field by_default { returns: fun(...): scenario.stub, invokes: fun(fn: function|table): scenario.stub }
--- Answers for calls whose arguments match (values or matchers).
---@field on_call_with fun(...): { returns: fun(...): scenario.stub, invokes: fun(fn: function|table): scenario.stub }

---@class scenario.spy_module
---@overload fun(fn?: function|table): scenario.spy
spy = {}
---@param fn? function|table
---@return scenario.spy
function spy.new(fn) end
--- Replaces `target[key]` with a spy that calls through to it.
---@param target table
---@param key any
---@return scenario.spy
function spy.on(target, key) end
---@return boolean
function spy.is_spy(value) end

--- Replaces `target[key]` with a stub answering `...`, or calling the one function given;
--- `stub.new()` makes a blank one.
---@class scenario.stub_module
---@overload fun(target?: table, key?: any, ...): scenario.stub
stub = {}
---@return scenario.stub
function stub.new(target, key, ...) end

--- Spies on (or, with `stubbed`, stubs) every function of a table, nested tables included.
---@class scenario.mock_module
---@overload fun(target: table, stubbed?: boolean): table
mock = {}
---@param target table
function mock.revert(target) end
--- Forgets the calls of every spy in `target`.
---@param target table
function mock.clear(target) end

--- Argument matchers, callable (`match.is_string()("x")`) and chained like assertions:
--- `match._`, `match.is_string()`, `match.is.Not.Nil()`, `match.equals(v)`, `match.same(v)`,
--- `match.matches(pattern)`, `match.near(v, tolerance)`, `match.unique()`, `match.is_ref(v)`,
--- `match.all_of(...)`, `match.any_of(...)`, `match.none_of(...)`.
---@type table<string, any>
match = {}
