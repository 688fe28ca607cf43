---@meta
-- Scenario globals of `envscript run` (busted style).

--- Declares a group of tests; its body runs at once.
---@param name string
---@param body fun()
function describe(name, body) end

--- Declares a test.
---@param name string
---@param body fun()
function it(name, body) end

--- Declares a test still to write; it is reported as skipped.
---@param name string
function pending(name) end

--- Runs before each test of the enclosing describe (outer hooks first).
---@param hook fun()
function before_each(hook) end

--- Runs after each test of the enclosing describe, even a failed one (inner hooks first).
---@param hook fun()
function after_each(hook) end

---@class scenario.assert
---@overload fun(value: any, message?: string, ...): any
assert = {}

--- Equal values of the same kind (1 and 1.0 differ).
---@param expected any
---@param actual any
---@param message? string
function assert.equals(expected, actual, message) end

--- Deeply equal tables.
---@param expected any
---@param actual any
---@param message? string
function assert.same(expected, actual, message) end

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
function assert.not_nil(value, message) end

--- The function raises an error (with this message, without its position, when given).
---@param fn fun()
---@param expected? any
---@param message? string
function assert.has_error(fn, expected, message) end
