import Foundation
import Testing

/// luassert's surface as its users write it (issue #30), each point run as a scenario by the built
/// `envscript run`: stubs and spies as luassert makes them, the assert object's methods (register,
/// parameters, snapshots, formatters, levels), modifiers after the assertion, what assertions return,
/// callable tables, matchers, luassert's failure texts and the module names `require` resolves.
/// luassert's own spec suite (scripts/compat) measures the rest.
@Suite(.timeLimit(.minutes(15))) struct LuassertSurfaceTests {
    /// Runs `body` as the only test of a scenario file and expects it to pass.
    func expectPasses(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scratch = try Scratch()
        try scratch.write("surface.lua", "describe('luassert', function()\n  it('works', function()\n\(body)\n  end)\nend)\n")
        let outcome = try scratch.run("run", "--no-init", "surface.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)", sourceLocation: sourceLocation)
        #expect(outcome.standardOutput.hasSuffix("1 passed, 0 failed\n"), "\(outcome.standardOutput)",
                sourceLocation: sourceLocation)
    }

    @Test func stubsTakeTheirAnswersWithADotAndAColonGivesTheStubFirst() throws {
        try expectPasses("""
            local t = { key = function() return "real" end }
            local s = stub(t, "key").returns("a", nil, "c")
            assert.equals(s, t.key)
            local a, b, c = t.key()
            assert.same({ "a", nil, "c" }, { a, b, c })
            stub(t, "key").invokes(function(x, y) return y, x end)
            local y, x = t.key(1, 2)
            assert.same({ 2, 1 }, { y, x })
            -- luassert's `returns` is a plain function: written with a colon, the stub is its first value.
            local colon = stub(t, "key"):returns("v")
            local first, second = t.key()
            assert.equals(colon, first)
            assert.equals("v", second)
            stub(t, "key").by_default.returns("default")
            assert.equals("default", t.key())
            stub(t, "key").by_default.invokes(function() return "invoked" end)
            assert.equals("invoked", t.key())
            """)
    }

    @Test func aStubGivenAFunctionCallsItAndGivenValuesAnswersThem() throws {
        try expectPasses("""
            local t = {}
            stub(t, "key", function(a, b, c) return c, b, a end)
            assert.same({ "foo", nil, "bar" }, { t.key("bar", nil, "foo") })
            local callable = setmetatable({}, { __call = function(_, a) return a .. "!" end })
            stub(t, "key", callable)
            assert.equals("hi!", t.key("hi"))
            local function f() end
            stub(t, "key", f, nil, "bar")
            assert.same({ f, nil, "bar" }, { t.key() })
            """)
    }

    @Test func onCallWithChoosesTheAnswerByArguments() throws {
        try expectPasses("""
            local t = { key = function() end }
            stub(t, "key").returns("default")
            t.key.on_call_with("bar").returns("for bar")
            t.key.on_call_with(match._, "foo").invokes(function(a) return "foo after " .. tostring(a) end)
            t.key.on_call_with(match.is_number()).returns(555)
            assert.equals("for bar", t.key("bar"))
            assert.equals("foo after nil", t.key(nil, "foo"))
            assert.equals(555, t.key(7))
            assert.equals("default", t.key())
            local shape = { inner = { 1 } }
            t.key.on_call_with(shape).returns("the shape when set up")
            shape.inner = "changed"
            assert.equals("the shape when set up", t.key({ inner = { 1 } }))
            """)
    }

    @Test func spiesCopyArgumentsAndReturnValuesAsLuassertDoes() throws {
        try expectPasses("""
            local s = spy.new(function(...) return ... end)
            local t = { n = 1 }
            s(t, "x")
            t.n = 2
            assert.equals(1, s.calls[1].vals[1].n)
            assert.equals(t, s.calls[1].refs[1])
            assert.equals(2, s.calls[1].vals.n)
            assert.equals(1, s.returnvals[1].vals[1].n)
            assert.spy(s).was.called_with({ n = 1 }, "x")
            assert.spy(s).was_not.called_with(t, "x")
            assert.spy(s).was.called_with(match.is_ref(t), "x")
            assert.spy(s).was.returned_with({ n = 1 }, "x")
            """)
    }

    @Test func revertReturnsWhatLuassertsReturns() throws {
        try expectPasses("""
            local function original() return "real" end
            local t = { key = original }
            local s = spy.on(t, "key")
            assert.equals(original, s:revert())
            assert.equals(original, t.key)
            local st = stub(t, "key")
            assert.equals(original, st:revert())
            local fresh = spy.new(original)
            assert.equals(original, fresh:revert())
            assert.is_nil(stub.new():revert())
            assert.is_nil(stub.new({}, "missing"):revert())
            """)
    }

    @Test func mockClearForgetsCallsInNestedTables() throws {
        try expectPasses("""
            local t = { a = function() end, inner = { b = function() end } }
            t.self = t
            assert.equals(t, mock(t))
            t.a()
            t.inner.b()
            assert.spy(t.inner.b).was.called(1)
            assert.equals(t, mock.clear(t))
            assert.spy(t.a).was_not.called()
            assert.spy(t.inner.b).was_not.called()
            mock.revert(t)
            assert.is_false(spy.is_spy(t.a))
            """)
    }

    @Test func customAssertionsMatchersAndModifiersRegisterAndUnregister() throws {
        try expectPasses("""
            local say = require("say")
            say:set("assertion.has_key.positive", "Expected key %s in:\\n%s")
            say:set("assertion.has_key.negative", "Expected key %s not in:\\n%s")
            assert:register("assertion", "has_key", function(state, args)
              return args[2][args[1]] ~= nil
            end, "assertion.has_key.positive", "assertion.has_key.negative")
            assert.has_key("a", { a = 1 })
            assert.no.has_key("b", { a = 1 })
            assert.error_matches(function() assert.has_key("b", {}) end, "Expected key (string) 'b' in:", 1, true)
            assert:unregister("assertion", "has_key")
            assert.has_error(function() assert.has_key("a", { a = 1 }) end, "luassert: unknown modifier/assertion: 'has_key'")

            assert:register("matcher", "even", function() return function(v) return v % 2 == 0 end end)
            assert.is_true(match.is_even()(4))
            assert.is_true(match.is_not.even()(3))
            local s = spy.new()
            s(6)
            assert.spy(s).was.called_with(match.even())
            assert:unregister("matcher", "even")

            assert:register("modifier", "twice", function(state) state.mod = not state.mod end)
            assert.twice.equal(1, 2)
            assert:unregister("modifier", "twice")
            """)
    }

    @Test func parametersFormattersAndSpiesAreUndoneBySnapshots() throws {
        try expectPasses("""
            local start = assert:snapshot()
            assert.is_nil(assert:get_parameter("Mine"))
            assert:set_parameter("Mine", 1)
            assert:set_parameter("TableFormatLevel", 0)
            local formatter = function(v) if v == 42 then return "the answer" end end
            assert:add_formatter(formatter)
            assert.equals("the answer", assert:format({ 42, n = 1 })[1])
            local inner = assert:snapshot()
            assert.equals(inner, start.next)
            assert.equals(start, inner.previous)
            assert:set_parameter("Mine", nil)
            assert.is_nil(assert:get_parameter("Mine"))
            inner:revert()
            assert.equals(1, assert:get_parameter("Mine"))
            local t = { f = function() return "real" end }
            stub(t, "f").returns("stubbed")
            assert.equals("stubbed", t.f())
            start:revert()
            assert.equals("real", t.f())
            assert.is_nil(assert:get_parameter("Mine"))
            assert.equals(3, assert:get_parameter("TableFormatLevel"))
            assert.equals("(number) 42", assert:format({ 42, n = 1 })[1])
            local again = assert:snapshot()
            assert:add_formatter(formatter)
            assert:remove_formatter(formatter)
            assert.equals("(number) 42", assert:format({ 42, n = 1 })[1])
            again:revert()
            """)
    }

    @Test func levelsReachLuaAssertAndReturnedArgumentsCountsValues() throws {
        try expectPasses("""
            assert.equals(3, assert:get_level(assert:level(3)))
            assert.is_nil(assert:get_level(3))
            local function helper() assert(false, "from the caller", assert:level(2)) end
            local ok, err = pcall(function()
              helper() -- the line the error names
            end)
            assert.is_false(ok)
            assert.matches("surface%.lua:%d+: from the caller", err)
            assert.returned_arguments(2, nil, nil)
            assert.not_returned_arguments(1, 1, 2)
            assert.error_matches(function() assert.returned_arguments(4, 1) end,
              "Expected to be called with 4 argument(s), but was called with 1", 1, true)
            """)
    }

    @Test func arraysHaveHolesOrNot() throws {
        try expectPasses("""
            assert.array({ 1, 2, 3 }).has.no.holes()
            assert.equals(4, assert.array({ 1, 2, 3 }).has.holes(4))
            assert.equals(2, assert.array({ 1, nil, 3 }).has.holes())
            assert.has_error(function() assert.array({ 1, nil, 3 }).has.no.holes() end)
            assert.has_error(function() assert.has.holes() end)
            """)
    }

    @Test func modifiersMayComeAfterTheAssertion() throws {
        try expectPasses("""
            assert.equals.Not(true, false)
            assert.equals.Not.Not(true, true)
            assert.has_error(function() assert.equals.Not(1, 1) end)
            local s = spy.new()
            s() s()
            assert.spy(s).was.called.at_least(2)
            assert.spy(s).was.called.at_most(2)
            assert.spy(s).was_not.called.more_than(2)
            assert.spy(s).was.called.less_than(3)
            assert.error_matches(function() assert.spy(s).was.called.at_least() end, "attempt to compare")
            """)
    }

    @Test func errorAndMatchAssertionsReturnWhatTheyFound() throws {
        try expectPasses("""
            assert.same({ "boom", "boom" }, { assert.has_error(function() error("boom") end, "boom") })
            local t = {}
            assert.equals(t, (assert.has_error(function() error(t) end)))
            assert.same({ "err", "message" }, { assert.error_matches(function() error("err message") end, "(err) (%w+)$") })
            assert.same({ "s", "n" }, { assert.has_match("(s).*(n)", "string") })
            assert.same({ "ing" }, { assert.matches("ing", "string", nil, true) })
            assert.same({}, { assert.has_no_match("%d", "string") })
            """)
    }

    @Test func callableTablesServeWhereFunctionsDo() throws {
        try expectPasses("""
            local raises = setmetatable({}, { __call = function() error("from a table") end })
            local quiet = setmetatable({}, { __call = function() end })
            assert.has_error(raises, "from a table")
            assert.has_no_error(quiet)
            assert.error_matches(raises, "from a")
            local s = spy.new(quiet)
            s()
            assert.spy(s).was.called(1)
            local t = { key = quiet }
            stub(t, "key")
            assert.has_error(function() stub({ key = "not callable" }, "key") end)
            assert.has_error(function() spy.new(10) end)
            """)
    }

    @Test func matchersAreCallableAndChainLikeAssertions() throws {
        try expectPasses("""
            assert.is_true(match.is_string()("x"))
            assert.is_false(match.is_string()(1))
            assert.is_true(match.is.string()("x"))
            assert.is_true(match.is.Not.Nil()(0))
            assert.is_true(match.equals.Not(true)(false))
            assert.is_true(match.near(1.5, 0.5)(2))
            assert.is_true(match.is_not.near(1.5, 0.4)(2))
            assert.is_true(match.unique()({ 1, 2 }))
            assert.is_true(match.is_not.unique()({ 1, 1 }))
            assert.is_true(match.has_match("^te")("test"))
            assert.is_false(match.has_match("%w+", nil, true)("test"))
            assert.is_true(match._(nil))
            assert.has_error(function() match.is_ref(1) end)
            assert.has_error(function() match.all_of("not a matcher") end)
            assert.equals("(matcher) is.match((string) 'x')", assert:format({ match.match("x"), n = 1 })[1])
            """)
    }

    @Test func failuresReadAsLuassertsMessages() throws {
        try expectPasses("""
            local function failure(fn)
              local ok, err = pcall(fn)
              assert.is_false(ok)
              return (tostring(err):gsub("^.-:%d+: ", ""))
            end
            assert.equals("Expected objects to be equal.\\nPassed in:\\n(number) 2\\nExpected:\\n(number) 1",
              failure(function() assert.equals(1, 2) end))
            assert.equals("Expected objects to be the same.\\nPassed in:\\n(string) 'one'\\nExpected:\\ntype number",
              failure(function() assert.is_number("one") end))
            local s = spy.new()
            s("herp", nil)
            assert.equals("Function was never called with matching arguments.\\n"
              .. "Called with (last call if any):\\n(values list) ((string) 'herp', (nil))\\n"
              .. "Expected:\\n(values list) ((number) 5)",
              failure(function() assert.spy(s).was.called_with(5) end))
            assert.equals("Expected to be called 3 time(s), but was called 1 time(s)",
              failure(function() assert.spy(s).was.called(3) end))
            assert.equals("Expected a different error.\\nCaught:\\n(no error)\\nExpected:\\n(error)",
              failure(function() assert.has_error(function() end) end))
            assert.equals("Expected values to be near.\\nPassed in:\\n(number) 2\\nExpected:\\n(number) 1 +/- 0.5",
              failure(function() assert.near(1, 2, 0.5) end))
            assert.equals("luassert: unknown modifier/assertion: 'is_bogus'", failure(function() assert.is.bogus(1) end))
            """)
    }

    @Test func aSpyAssertionHonoursItsMessage() throws {
        try expectPasses("""
            local s = spy.new()
            local ok, err = pcall(function() assert.spy(s, "the spy's own words").was.called() end)
            assert.is_false(ok)
            assert.matches("the spy's own words\\nExpected to be called", err, 1, true)
            local t = {}
            local ok2, err2 = pcall(function() assert.spy(s, t).was.called() end)
            assert.matches("(" .. tostring(t) .. ") { }", err2, 1, true)
            local ok3, err3 = pcall(function() assert.message("first").spy(s).was.called() end)
            assert.matches("first\\nExpected", err3, 1, true)
            """)
    }

    @Test func luassertsModulesResolveByName() throws {
        try expectPasses("""
            assert.equals(assert, require("luassert"))
            assert.equals(assert, require("luassert.assert"))
            assert.equals(match, require("luassert.match"))
            assert.equals(spy, require("luassert.spy"))
            assert.equals(stub, require("luassert.stub"))
            assert.equals(mock, require("luassert.mock"))
            assert.equals(require("say"), require("luassert.say"))
            local util = require("luassert.util")
            assert.equals(3, select("#", util.unpack(util.make_arglist(1, nil, nil))))
            assert.is_function(require("luassert.state").snapshot)
            assert.is_table(require("luassert.namespaces").assertion)
            """)
    }
}
