-- The scenario runner's surface, as busted and luassert users know it: every assertion through its
-- modifier chains, failure messages (checked by their text), spies, stubs, mocks, matchers, lifecycle
-- functions and the insulation of globals. `envscript run` runs it with the other examples.

-- A failure that must happen, with a message that must contain `text`.
local function fails_with(text, fn)
  assert.error_matches(fn, text, 1, true)
end

describe("assertions #fast", function()
  -- A custom assertion, registered as luassert's users do: its messages are `say` keys.
  local say = require("say")
  say:set("assertion.has_property.positive", "Expected property %s in:\n%s")
  say:set("assertion.has_property.negative", "Expected property %s to not be in:\n%s")
  assert:register("assertion", "has_property", function(_, arguments)
    return type(arguments[2]) == "table" and arguments[2][arguments[1]] ~= nil
  end, "assertion.has_property.positive", "assertion.has_property.negative")

  it("read through modifier chains", function()
    assert.are.equal(1, 1)
    assert.equals("a", "a")
    assert.is_not.equal(1, 2)
    assert.are.same({ a = { 1, 2 } }, { a = { 1, 2 } })
    assert.is_not.same({ 1 }, { 2 })
    assert.is.truthy(0)
    assert.is_falsy(nil)
    assert.is_true(true)
    assert.is_false(false)
    assert.is_nil(nil)
    assert.is_not_nil("x")
    assert.near(1.0, 1.05, 0.1)
    assert.matches("^log", "login")
    assert.does_not.match("^x", "login")
    assert.unique({ 1, 2, 3 })
    assert.is_not.unique({ { 1 }, { 1 } }, true)
    assert.has_property("name", { name = "qa" })
    assert.is_number(1)
    assert.is_string("s")
    assert.is_table({})
    assert.is_function(print)
    assert.is_boolean(false)
    assert.is_not_userdata(1)
    assert.has_error(function() error("boom") end, "boom")
    assert.has.errors(function() error({ code = 7 }) end, { code = 7 })
    assert.has_no.errors(function() end)
    assert.error_matches(function() error("code 42") end, "code %d+")
    assert(true, "Lua's own assert still works")
    -- luassert's words are case-insensitive, so the Lua keywords can be written: `is.Not.True`.
    assert.is.Not.True(false)
    assert.True(true)
    assert.are.Equal(1, 1)
    -- Cycles of different lengths are the same shape.
    local a, b1, b2 = {}, {}, {}
    a.next, b1.next, b2.next = a, b2, b1
    assert.are.same(a, b1)
  end)

  it("fail with luassert's messages", function()
    fails_with("Expected objects to be equal.\nPassed in:\n(number) 2\nExpected:\n(number) 1", function()
      assert.are.equal(1, 2)
    end)
    fails_with("Expected objects to not be equal.", function() assert.is_not.equal("a", "a") end)
    fails_with(" *[session] = {\n   *[user] = 'qa'", function()
      assert.are.same({ session = { user = "admin" } }, { session = { user = "qa" } })
    end)
    fails_with("Expected to be truthy, but value was:\n(nil)", function() assert.is_truthy(nil) end)
    fails_with("Expected values to be near.", function() assert.near(1, 2, 0.5) end)
    fails_with("Expected strings to match.", function() assert.matches("^z", "abc") end)
    fails_with("Expected object to be unique:", function() assert.unique({ 1, 1 }) end)
    fails_with("Expected property (string) 'x' in:", function() assert.has_property("x", {}) end)
    fails_with("Expected objects to be the same.\nPassed in:\n(string) 'one'\nExpected:\ntype number", function()
      assert.is_number("one")
    end)
    fails_with("Expected a different error.\nCaught:\n(no error)", function() assert.has_error(function() end) end)
    fails_with("Expected no error, but caught:", function() assert.has_no.errors(function() error("x") end) end)
    fails_with("the reason\nExpected objects to be the same.", function() assert.is_true(1, "the reason") end)
    fails_with("told first\n", function() assert.message("told first").is_nil(1) end)
    fails_with("luassert: unknown modifier/assertion: 'is_bogus'", function() assert.is.bogus(1) end)
    -- Lua's own assert names the line that called it.
    local ok, err = pcall(function() assert(false, "plain") end)
    assert.is_false(ok)
    assert.matches("busted_surface%.lua:%d+: plain$", err)
  end)
end)

describe("spies, stubs and mocks", function()
  it("spy on a function and check its calls", function()
    local double = spy.new(function(x) return x * 2 end)
    assert.equals(4, double(2))
    double(5)
    assert.spy(double).was.called(2)
    assert.spy(double).was_called_with(5)
    assert.spy(double).was.called_with(match.is_number())
    assert.spy(double).was_not.called_with("x")
    assert.spy(double).was.returned_with(10)
    assert.spy(double).was.called_at_least(1)
    assert.spy(double).was.called_at_most(2)
    fails_with("Expected to be called 3 time(s), but was called 2 time(s)", function()
      assert.spy(double).was.called(3)
    end)
    fails_with("Function was never called with matching arguments.\nCalled with (last call if any):\n"
      .. "(values list) ((number) 5)", function()
      assert.spy(double).was.called_with(7)
    end)
  end)

  it("spy on a host module: it sees the script's activations", function()
    local activate = spy.on(container, "activate")
    finally(function() activate:revert() end)
    container.activate("DEFAULT")
    assert.spy(activate).was.called(1)
    assert.spy(activate).was.called_with("DEFAULT")
    assert.spy(activate).was_not.called_with(match.is_table())
  end)

  it("stub answers and mocks wrap whole tables", function()
    local api = { fetch = function() return "network" end, nested = { ping = function() return "pong" end } }
    -- luassert's stubs take their answers with a dot (with a colon, the stub would come first).
    local fetch = stub(api, "fetch").returns("canned", 200)
    local body, status = api.fetch("/v1/user")
    assert.equals("canned", body)
    assert.equals(200, status)
    fetch.invokes(function(path) return "for " .. path end)
    assert.equals("for /x", api.fetch("/x"))
    assert.stub(fetch).was.called(2)
    fetch:revert()
    assert.equals("network", api.fetch())

    local mocked = mock(api)
    assert.equals("pong", mocked.nested.ping())
    assert.spy(mocked.nested.ping).was.called(1)
    mock.revert(mocked)
    assert.is_false(spy.is_spy(api.nested.ping))
    local stubbed = mock(api, true)
    assert.is_nil(stubbed.fetch())
    mock.revert(stubbed)
  end)

  it("match arguments", function()
    local s = spy.new()
    s("qa", { role = "tester" }, 3)
    assert.spy(s).was.called_with(match._, match.is_table(), match.is_not_string())
    assert.spy(s).was.called_with("qa", { role = "tester" }, match.is_all_of(match.is_number(), match.is_truthy()))
    assert.spy(s).was.called_with(match.matches("^q"), match.same({ role = "tester" }), match.is_any_of(match.is_nil(), match.equals(3)))
  end)
end)

-- The lifecycle: what ran, in order, checked by the last test of the file.
local events = {}
describe("the lifecycle", function()
  setup(function() events[#events + 1] = "setup" end)
  lazy_setup(function() events[#events + 1] = "lazy_setup" end)
  teardown(function() events[#events + 1] = "teardown" end)
  before_each(function() events[#events + 1] = "before_each" end)
  after_each(function() events[#events + 1] = "after_each" end)

  it("runs setups once and finally after the body", function()
    finally(function() events[#events + 1] = "finally" end)
    events[#events + 1] = "first"
  end)

  it("runs before_each again", function()
    events[#events + 1] = "second"
    assert.are.same({ "setup", "lazy_setup", "before_each", "first", "finally", "after_each", "before_each", "second" }, events)
  end)

  describe("with only pending tests", function()
    lazy_setup(function() events[#events + 1] = "never: no test runs here" end)
    pending("a lazy setup waits for a test that runs")
  end)

  insulate("an insulated block", function()
    it("sets a global that does not outlive it", function() shared_setting = "inside" end)
  end)

  it("does not see the insulated global", function()
    assert.is_nil(shared_setting)
  end)

  -- As in busted, a global a test sets is the test's own; one an expose body sets is the block's
  -- around it (and `_G` changes outlive the insulation right around it).
  expose("an exposed block", function()
    exposed_setting = "kept"
    it("sets a global that outlives it", function() assert.equals("kept", exposed_setting) end)
  end)

  it("sees the exposed global", function()
    assert.equals("kept", exposed_setting)
  end)
end)

describe("after the lifecycle block", function()
  it("saw its teardown run", function()
    assert.equals("teardown", events[#events])
  end)
end)
