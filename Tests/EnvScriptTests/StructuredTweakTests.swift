import EnvScript
import Foundation
import LuaBridge
import Testing
import Tweaks

/// Structured flag values from Lua: tables in and out of every kind of provider, and overrides that
/// follow their container through a switch.
@Suite struct StructuredTweakTests {
    static let shippedJSON = """
        {"checkout": {
          "layout": {"Value": {"columns": 3, "style": "grid", "badges": ["new"]}},
          "steps": {"Value": ["cart", "pay"]}
        }}
        """

    @Test func tablesComeInAndOutOfEveryProvider() throws {
        let fixture = try HostFixture()
        let json = try fixture.write("shipped.json", Self.shippedJSON)
        try fixture.run("""
            local lua = tweak.provider{ name = 'lua', get = function(feature, variable)
              if variable == 'banner' then return { text = 'Sale', colors = { 'red', 'white' } } end
              if variable == 'described' then return { value = { value = 1 }, title = 'An object with a field named value' } end
            end }
            tweak.stack{ tweak.overrides(), lua, tweak.ephemeral({ promo = { tiers = { 10, 20, 30 } } }, 'mine'), tweak.json('\(json)', 'shipped') }
            """)
        #expect(try fixture.run("local v = tweak.value('checkout', 'layout') return v.columns, v.style, v.badges[1]") == [3, "grid", "new"])
        #expect(try fixture.run("return #tweak.value('checkout', 'steps')") == [2])
        #expect(try fixture.run("local v = tweak.value('promo', 'banner') return v.text, v.colors[2]") == ["Sale", "white"])
        #expect(try fixture.run("local v, info = tweak.get('promo', 'described') return v.value, info.title") == [1, "An object with a field named value"])
        #expect(try fixture.run("return tweak.value('promo', 'tiers')[3]") == [30])
        #expect(try fixture.host.tweaks.lookup(feature: "promo", variable: "tiers").value == [10, 20, 30])

        try fixture.run("tweak.set('checkout', 'layout', { columns = 4, style = 'list', badges = {} })")
        #expect(try fixture.host.tweaks.lookup(feature: "checkout", variable: "layout").tweak.source == "overrides")
        #expect(try fixture.run("return tweak.value('checkout', 'layout').columns") == [4])
    }

    @Test func aWriteOfAnotherTypeIsRefusedNamingTheType() throws {
        let fixture = try HostFixture()
        let json = try fixture.write("shipped.json", Self.shippedJSON)
        try fixture.run("tweak.stack{ tweak.overrides(), tweak.json('\(json)', 'shipped') }")
        let error = try #require(throws: LuaError.self) { try fixture.run("tweak.set('checkout', 'layout', 3)") }
        #expect("\(error)".contains("tweak 'checkout.layout' is an object (as shipped defines it), not an int (3)"), "\(error)")
        let mixed = try #require(throws: LuaError.self) { try fixture.run("tweak.set('checkout', 'steps', { 'a', x = 1 })") }
        #expect("\(mixed)".contains("mixing a sequence and other keys"), "\(mixed)")
        let function = try #require(throws: LuaError.self) { try fixture.run("tweak.set('checkout', 'steps', { print })") }
        #expect("\(function)".contains("function"), "\(function)")
    }

    @Test func structuredOverridesFollowTheirContainer() throws {
        let fixture = try HostFixture()
        let json = try fixture.write("shipped.json", Self.shippedJSON)
        try fixture.run("""
            tweak.stack{ tweak.overrides(), tweak.json('\(json)', 'shipped') }
            container.create('QA')
            container.activate('QA')
            tweak.set('checkout', 'steps', { 'cart', 'address', 'pay' })
            container.activate('DEFAULT')
            """)
        #expect(try fixture.run("return #tweak.value('checkout', 'steps')") == [2], "DEFAULT has no override")
        try fixture.run("container.activate('QA')")
        #expect(try fixture.run("local s = tweak.value('checkout', 'steps') return #s, s[2]") == [3, "address"])
        #expect(try fixture.host.tweaks.value("checkout", "steps", as: [String].self) == ["cart", "address", "pay"])
    }

    @Test func luaListsAndResetsTheOverridesOfTheActiveContainer() throws {
        let fixture = try HostFixture()
        let json = try fixture.write("shipped.json", Self.shippedJSON)
        let outcome = try fixture.run("""
            tweak.stack{ tweak.overrides(), tweak.json('\(json)', 'shipped') }
            local heard = 0
            tweak.on_change(function() heard = heard + 1 end)
            tweak.set('checkout', 'steps', { 'cart' })
            tweak.set('ui', 'dark', true)
            local listed = tweak.list_overrides()
            heard = 0
            local removed = tweak.delete_all_overrides()
            return #listed, listed[1].feature .. '.' .. listed[1].variable, listed[2].value, removed, heard, #tweak.list_overrides(), #tweak.value('checkout', 'steps')
            """)
        #expect(outcome == [2, "checkout.steps", true, 2, 1, 0, 2])
    }

    @Test func luaExplainsAnAnswer() throws {
        let fixture = try HostFixture()
        let json = try fixture.write("shipped.json", Self.shippedJSON)
        let outcome = try fixture.run("""
            tweak.stack{ tweak.overrides(), tweak.json('\(json)', 'shipped') }
            local e = tweak.explain('checkout', 'layout')
            return e.steps[1].outcome, e.steps[2].outcome, e.steps[2].value.columns, e.answer.source, tweak.explain('x', 'y').answer
            """)
        #expect(outcome == ["missing", "answered", 3, "shipped", nil])
    }
}
