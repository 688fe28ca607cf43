import Containers
import EnvScript
import Foundation
import LuaBridge
import Testing

/// The `container` module against a real home: switching, hooks, and what follows the active container.
@Suite struct ContainerModuleTests {
    func home(_ fixture: HostFixture) -> URL { fixture.host.configuration.home }

    @Test func createActivateAndSwitchBackKeepEachContainersFiles() throws {
        let fixture = try HostFixture()
        try "original session".write(to: home(fixture).appendingPathComponent("session.txt"), atomically: true, encoding: .utf8)
        let created = try fixture.run("return container.create('Debug', { description = 'QA login' })")
        #expect(created.first?["name"] == "Debug")
        #expect(created.first?["is_active"] == false)
        #expect(try fixture.run("return container.activate('Debug').name") == ["Debug"])
        #expect(!FileManager.default.fileExists(atPath: home(fixture).appendingPathComponent("session.txt").path))
        try "debug session".write(to: home(fixture).appendingPathComponent("session.txt"), atomically: true, encoding: .utf8)
        try fixture.run("container.activate('DEFAULT')")
        #expect(try String(contentsOf: home(fixture).appendingPathComponent("session.txt"), encoding: .utf8) == "original session")
        let list = try fixture.run("local names = {} for _, c in ipairs(container.list()) do names[#names + 1] = c.name .. (c.is_active and '*' or '') end return table.concat(names, ',')")
        #expect(list == ["DEFAULT*,Debug"])
        #expect(try fixture.run("return container.get('nope')") == [.nil])
        #expect(try fixture.run("return container.get('00000000-0000-0000-0000-000000000000').is_default") == [true])
    }

    @Test func namesThatBreakTheRulesAreRefusedFromLua() throws {
        let fixture = try HostFixture()
        try fixture.run("container.create('Debug')")
        // '\\255' is the byte 0xFF, which is not UTF-8: refused, not stored as U+FFFD.
        for (call, says) in [
            ("container.create('a\\255b')", "bad argument #1 to 'container.create' (the name must be UTF-8 text"),
            ("container.clone('Debug', 'copy \\255')", "bad argument #2 to 'container.clone' (the name must be UTF-8 text"),
            ("container.update('Debug', { name = '\\255' })", "bad argument #2 to 'container.update' (field 'name' must be UTF-8 text"),
            ("container.create('   ')", "not only white space"),
            ("container.create(' x ')", "may not begin or end with white space"),
            ("container.create('default')", "differs only by case from the container 'DEFAULT'"),
            ("container.clone('DEFAULT', 'DEBUG')", "differs only by case from the container 'Debug'"),
        ] {
            let error = try #require(throws: LuaError.self) { try fixture.run(call) }
            #expect(error.message.contains(says), "\(call): \(error.message)")
        }
        #expect(try fixture.host.containers.containers.map(\.name) == ["DEFAULT", "Debug"])
    }

    @Test func hooksRunInOrderAndAWillChangeErrorCancels() throws {
        let fixture = try HostFixture()
        try fixture.run("""
            events = {}
            container.on_will_change(function(to, from) table.insert(events, 'will:' .. from.name .. '->' .. to.name) end)
            local handle = container.on_did_change(function(to, from) table.insert(events, 'did:' .. from.name .. '->' .. to.name) end)
            container.create('Staging')
            container.activate('Staging')
            container.activate('DEFAULT')
            handle:remove()
            container.activate('Staging')
            """)
        #expect(try fixture.run("return table.concat(events, ' ')") == [
            "will:DEFAULT->Staging did:DEFAULT->Staging will:Staging->DEFAULT did:Staging->DEFAULT will:DEFAULT->Staging",
        ])
        // A hook that refuses keeps everything as it was; Swift-started switches run it too.
        try "staging data".write(to: home(fixture).appendingPathComponent("data.txt"), atomically: true, encoding: .utf8)
        try fixture.run("""
            container.on_will_change(function(to) if to.name == 'DEFAULT' then error('finish the staging run first') end end)
            """)
        let refused = try #require(throws: LuaError.self) { try fixture.run("container.activate('DEFAULT')") }
        #expect(refused.message.contains("finish the staging run first"))
        #expect(throws: ContainerError.self) { try fixture.host.containers.activate(container: try fixture.host.containers.resolve("DEFAULT")) }
        #expect(try fixture.run("return container.active().name") == ["Staging"])
        #expect(FileManager.default.fileExists(atPath: home(fixture).appendingPathComponent("data.txt").path))
    }

    @Test func tweakOverridesFollowTheActiveContainer() throws {
        let fixture = try HostFixture()
        try fixture.run("""
            tweak.set('checkout', 'color', 'blue')
            container.create('Debug')
            container.activate('Debug')
            """)
        #expect(try fixture.run("return tweak.get('checkout', 'color')") == [.nil])
        try fixture.run("tweak.set('checkout', 'color', 'red')")
        try fixture.run("container.activate('DEFAULT')")
        #expect(try fixture.run("return tweak.get('checkout', 'color')").first == "blue")
        try fixture.run("container.activate('Debug')")
        #expect(try fixture.host.tweaks.value("checkout", "color", as: String.self) == "red")
    }

    @Test func cloneUpdateCleanDeleteAndReset() throws {
        let fixture = try HostFixture()
        try "kept".write(to: home(fixture).appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        try fixture.run("""
            local copy = container.clone('DEFAULT', 'Copy', { description = 'from default' })
            container.update('Copy', { name = 'Copy 2', description = 'renamed' })
            container.activate('Copy 2')
            """)
        #expect(try String(contentsOf: home(fixture).appendingPathComponent("a.txt"), encoding: .utf8) == "kept")
        #expect(try fixture.run("return container.active().description") == ["renamed"])
        try fixture.run("container.clean('Copy 2')")
        #expect(!FileManager.default.fileExists(atPath: home(fixture).appendingPathComponent("a.txt").path))
        try fixture.run("container.delete('Copy 2')")
        #expect(try fixture.run("return container.active().name, #container.list()") == ["DEFAULT", 1])
        let noDefaultDelete = try #require(throws: LuaError.self) { try fixture.run("container.delete('DEFAULT')") }
        #expect(noDefaultDelete.message.contains("DEFAULT"))
        let badName = try #require(throws: LuaError.self) { try fixture.run("container.create('')") }
        #expect(badName.message.contains("name"))
        try fixture.run("container.create('X') container.reset()")
        #expect(try fixture.run("return #container.list()") == [1])
        let badExclude = try #require(throws: LuaError.self) { try fixture.run("container.exclude({ 1 })") }
        #expect(badExclude.message.contains("bad argument #1 to 'container.exclude' (entry 1 must be a non-empty path, not a number)"))
    }
}
