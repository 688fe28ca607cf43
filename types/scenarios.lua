---@meta
-- Scenario globals of `envscript run`: busted's declarations, luassert's assert, spies, stubs,
-- mocks and matchers (see the README, "Scenarios: busted and luassert").

--- Declares a group of tests; its body runs at once.
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

--- Inside `it`: runs after the test's body, failed or not.
---@param fn fun()
function finally(fn) end

--- luassert's assert: assertions through modifier chains (`assert.are.same`,
--- `assert.is_not.equal`, `assert.has_no.errors`, `assert.spy(s).was.called(2)`).
---@class scenario.assert
---@overload fun(value: any, message?: string, ...): any
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
assert = {}

--- `expected == actual`.
---@param expected any
---@param actual any
---@param message? string
function assert.equal(expected, actual, message) end
assert.equals = assert.equal

--- Deeply equal values; a failure points at the first difference.
---@param expected any
---@param actual any
---@param message? string
function assert.same(expected, actual, message) end

---@param value any
---@param message? string
function assert.truthy(value, message) end

---@param value any
---@param message? string
function assert.falsy(value, message) end

---@param value any
---@param message? string
function assert.is_true(value, message) end

---@param value any
---@param message? string
function assert.is_false(value, message) end

---@param value any
---@param message? string
function assert.is_nil(value, message) end

---@param value any
---@param message? string
function assert.is_not_nil(value, message) end

---@param expected number
---@param actual number
---@param tolerance number
---@param message? string
function assert.near(expected, actual, tolerance, message) end

---@param pattern string
---@param actual string|number
---@param init? integer
---@param plain? boolean
---@param message? string
function assert.matches(pattern, actual, init, plain, message) end

--- The function raises an error (equal to `expected`, without its position, when given).
---@param fn fun()
---@param expected? any
---@param message? string
function assert.has_error(fn, expected, message) end

---@param fn fun()
---@param pattern string
---@param init? integer
---@param plain? boolean
---@param message? string
function assert.error_matches(fn, pattern, init, plain, message) end

---@param list table
---@param deep? boolean
---@param message? string
function assert.unique(list, deep, message) end

---@param name any
---@param object table
---@param message? string
function assert.has_property(name, object, message) end

--- A custom message put before the failure of the assertion that follows.
---@param text string
---@return scenario.assert
function assert.message(text) end

--- Assertions about a spy's calls: `.was.called(n)`, `.was.called_with(...)`, `.was.returned_with(...)`.
---@param s scenario.spy
---@return scenario.assert
function assert.spy(s) end
assert.stub = assert.spy

---@class scenario.spy
---@overload fun(...): ...
---@field calls { args: table, results: table }[]
local scenario_spy = {}
---@return scenario.spy
function scenario_spy:revert() end
---@return scenario.spy
function scenario_spy:clear() end
---@return scenario.spy
function scenario_spy:returns(...) end
---@param fn function
---@return scenario.spy
function scenario_spy:invokes(fn) end

---@class scenario.spy_module
---@overload fun(fn?: function): scenario.spy
spy = {}
---@param fn? function
---@return scenario.spy
function spy.new(fn) end
--- Replaces `target[key]` with a spy that calls through to it.
---@param target table
---@param key string
---@return scenario.spy
function spy.on(target, key) end
---@return boolean
function spy.is_spy(value) end

--- Replaces `target[key]` with a stub answering `...`.
---@type fun(target?: table, key?: string, ...): scenario.spy
stub = nil

--- Spies on (or, with `stubbed`, stubs) every function of a table, nested tables included.
---@class scenario.mock_module
---@overload fun(target: table, stubbed?: boolean): table
mock = {}
---@param target table
function mock.revert(target) end

--- Argument matchers: `match._`, `match.is_string()`, `match.is_not_nil()`, `match.equals(v)`,
--- `match.same(v)`, `match.matches(pattern)`, `match.is_ref(v)`, `match.is_all_of(...)`,
--- `match.is_any_of(...)`, `match.is_none_of(...)`.
---@type table<string, any>
match = {}
