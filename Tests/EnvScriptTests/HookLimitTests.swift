import Containers
import EnvScript
import Foundation
import LuaBridge
import Testing

/// Hooks cannot run away with the home: a did-change hook that switches is refused (no recursion, the
/// home stays where the user asked), a stuck hook is stopped by the host's hook timeout, and after a
/// limit no host function runs.
@Suite struct HookLimitTests {
    @Test func aDidChangeHookThatSwitchesBackIsRefused() throws {
        let fixture = try HostFixture(attaches: false)
        try fixture.run("""
            refusals = {}
            container.create('B')
            container.on_did_change(function(to, from)
              local ok, message = pcall(container.activate, from.name)
              refusals[#refusals + 1] = tostring(message)
            end)
            container.activate('B')
            """)
        let results = try fixture.run("return container.active().name, container.get('B').activated_count, #refusals, refusals[1]")
        #expect(results[0] == "B")
        #expect(results[1] == .integer(1), "the hook's switch back must not have run")
        #expect(results[2] == .integer(1))
        let message = try #require(results[3].stringValue)
        #expect(message.contains("cannot switch to 'DEFAULT' from inside a did-change hook"))
        #expect(message.contains("the home stays on 'B'"))
    }

    @Test func aDidChangeHookThatSwitchesWithoutCatchingLeavesTheHomeWhereAsked() throws {
        let fixture = try HostFixture(attaches: false)
        try fixture.run("""
            container.create('B')
            container.create('C')
            container.on_did_change(function(to) if to.name == 'B' then container.activate('C') end end)
            container.activate('B')
            """)
        #expect(try fixture.run("return container.active().name") == ["B"])
        #expect(try fixture.run("return container.get('C').activated_count") == [.integer(0)])
        // Switching later, from outside the hook, still works.
        try fixture.run("container.activate('C')")
        #expect(try fixture.run("return container.active().name") == ["C"])
    }

    @Test func aStuckWillChangeHookFailsItsSwitchAtTheHookTimeout() throws {
        let fixture = try HostFixture(attaches: false) { configuration in
            configuration.lua.instructionLimit = nil
            configuration.hookTimeout = .milliseconds(200)
        }
        try fixture.run("""
            container.create('B')
            container.on_will_change(function() while true do end end)
            """)
        let error = try #require(throws: LuaError.self) { try fixture.run("container.activate('B')") }
        #expect(error.message.contains("time limit exceeded: the container.on_will_change hook ran longer than"))
        #expect(error.message.contains("cancelled"))
        #expect(try fixture.run("return container.active().name") == ["DEFAULT"])
    }

    @Test func noHostFunctionRunsAfterTheLimitInsideACoroutine() throws {
        let fixture = try HostFixture(attaches: false) { $0.lua.instructionLimit = 1_000_000 }
        let error = try #require(throws: LuaError.self) {
            try fixture.run("""
                local co = coroutine.create(function() while true do end end)
                coroutine.resume(co)
                container.create('AfterLimit')
                """)
        }
        #expect(error.kind == .instructionLimit)
        #expect(try fixture.host.containers.containers.map(\.name) == ["DEFAULT"])
    }
}
