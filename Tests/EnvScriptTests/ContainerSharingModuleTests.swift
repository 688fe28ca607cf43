import EnvScript
import Foundation
import LuaBridge
import Testing

/// `container.export`, `container.import` and `container.diff` from Lua, with the host's own stores:
/// a tweak override set from Lua shows in the diff by name.
@Suite struct ContainerSharingModuleTests {
    @Test func exportImportAndDiffFromLua() throws {
        let fixture = try HostFixture()
        let archive = fixture.folder.appendingPathComponent("state.zip").path
        try "hello".write(to: fixture.host.configuration.home.appendingPathComponent("greeting.txt"), atomically: true, encoding: .utf8)
        let exported = try fixture.run("tweak.set('checkout', 'max_items', 5) return container.export('DEFAULT', '\(archive)')")
        #expect(exported.first?["path"] == .string(archive))
        let imported = try fixture.run("return container.import('\(archive)', { name = 'Shared' })")
        #expect(imported.first?["name"] == "Shared")
        #expect(imported.first?["is_active"] == false)
        #expect(try fixture.run("local d = container.diff('DEFAULT', 'Shared') return #d.entries.changed + #d.preferences.changed") == [0])

        let diff = try fixture.run("""
            tweak.set('checkout', 'max_items', 8)
            local d = container.diff('\(archive)', 'DEFAULT')
            local key = d.preferences.changed[1]
            return key.kind, key.name, key.before, key.after, d.entries.changed[1].size_before ~= nil
            """)
        #expect(diff == ["tweak", "checkout.max_items", 5, 8, true])

        #expect(throws: (any Error).self) { try fixture.run("container.import('\(archive)')") }
        let refused = try fixture.run("return select(2, pcall(container.import, '\(archive)', { max_files = 0 }))")
        #expect(refused.first?.stringValue?.contains("max_files") == true)
        let missing = fixture.folder.appendingPathComponent("nowhere.zip").path
        let nowhere = try fixture.run("return select(2, pcall(container.diff, 'DEFAULT', '\(missing)'))")
        #expect(nowhere.first?.stringValue?.contains("neither a container of this home nor an archive file") == true)
        // Outside the project folder the permission answers first, whether the file exists or not.
        let outside = try fixture.run("return select(2, pcall(container.diff, 'DEFAULT', '/etc/passwd'))")
        #expect(outside.first?.stringValue?.contains("container.diff: reading '/etc/passwd' is not allowed") == true)
    }
}
