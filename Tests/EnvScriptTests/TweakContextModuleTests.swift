import EnvScript
import LuaBridge
import Testing
import Tweaks

/// The evaluation context from Lua: `tweak.get`/`tweak.value` with a context, `tweak.with_context`, and
/// a Lua provider whose `get` takes the context.
@Suite struct TweakContextModuleTests {
    /// A stack whose `rules` provider answers `checkout.layout` by the context: "new" in Germany.
    private static let rules = """
        tweak.stack{ tweak.overrides(), tweak.provider{ name = 'rules', get = function(feature, variable, ctx)
          if feature == 'checkout' and variable == 'layout' then
            if ctx.country == 'DE' then return {value = 'new', variant = 'on', reason = 'TARGETING_MATCH'} end
            return 'old'
          end
        end } }
        tweak.cache(true)
        """

    @Test func aLookupEvaluatesInTheContextItIsGivenAndNoneIsCached() throws {
        let fixture = try HostFixture()
        try fixture.run(Self.rules)
        #expect(try fixture.run("return tweak.value('checkout', 'layout', 'x')") == ["old"])
        #expect(try fixture.run("return tweak.value('checkout', 'layout', 'x', {country = 'DE'})") == ["new"])
        #expect(try fixture.run("return tweak.value('checkout', 'layout', 'x')") == ["old"])
        let details = try fixture.run("""
            local value, info = tweak.get('checkout', 'layout', {country = 'DE', targetingKey = 'u1'})
            return value, info.reason, info.variant, info.source
            """)
        #expect(details == ["new", "TARGETING_MATCH", "on", "rules"])
    }

    @Test func withContextReachesEveryLookupInsideItAndEndsWithIt() throws {
        let fixture = try HostFixture()
        try fixture.run(Self.rules)
        let answers = try fixture.run("""
            local inside = tweak.with_context({country = 'DE'}, function()
              return tweak.value('checkout', 'layout', 'x')
            end)
            return inside, tweak.value('checkout', 'layout', 'x')
            """)
        #expect(answers == ["new", "old"])
        // The Swift side sees the script's context too while the function runs.
        let host = fixture.host
        let seen = try fixture.run("""
            return tweak.with_context({country = 'DE'}, function() return tweak.get('checkout', 'layout') end)
            """)
        #expect(seen.first == "new")
        #expect(try host.tweaks.value("checkout", "layout", as: String.self) == "old")
    }

    @Test func anErrorInsideWithContextPassesThroughAndTheContextEnds() throws {
        let fixture = try HostFixture()
        try fixture.run(Self.rules)
        let outcome = try fixture.run("""
            local ok, message = pcall(tweak.with_context, {country = 'DE'}, function() error('boom') end)
            return ok, tostring(message):find('boom') ~= nil, tweak.value('checkout', 'layout', 'x')
            """)
        #expect(outcome == [false, true, "old"])
    }

    @Test func aContextThatIsNotOneIsRefusedNamingTheArgument() throws {
        let fixture = try HostFixture()
        try fixture.run(Self.rules)
        #expect {
            try fixture.run("return tweak.value('checkout', 'layout', 'x', {targetingKey = 3})")
        } throws: { error in
            "\(error)".contains("bad argument #4 to 'tweak.value'") && "\(error)".contains("its targetingKey is an int")
        }
        #expect {
            try fixture.run("return tweak.get('checkout', 'layout', 'DE')")
        } throws: { error in
            "\(error)".contains("bad argument #3 to 'tweak.get'") && "\(error)".contains("not a string")
        }
    }

    @Test func aProviderWithTwoParametersIsCachedAsBefore() throws {
        let fixture = try HostFixture()
        try fixture.run("""
            calls = 0
            tweak.stack{ tweak.provider{ name = 'plain', get = function(feature, variable)
              calls = calls + 1
              return 1
            end } }
            tweak.cache(true)
            """)
        let calls = try fixture.run("""
            tweak.value('a', 'b', 0, {country = 'DE'})
            tweak.value('a', 'b', 0, {country = 'FR'})
            return calls
            """)
        #expect(calls == [1])
    }
}
