import EnvScript
import Foundation
import LuaBridge
import Testing

@Suite struct EnvScriptHostTests {
    func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("envscript-host-\(UUID().uuidString)")
    }

    @Test func theHomeIsCreatedWhenMissing() throws {
        let home = temporaryFolder().appendingPathComponent("nested/home")
        defer { try? FileManager.default.removeItem(at: home.deletingLastPathComponent().deletingLastPathComponent()) }
        let host = try EnvScriptHost(configuration: HostConfiguration(home: home))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: home.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try host.lua.execute("return 6 * 7") == [42])
    }

    @Test func aFileCannotBeTheHome() throws {
        let file = temporaryFolder()
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(throws: HostError.self) { try EnvScriptHost(configuration: HostConfiguration(home: file)) }
        #expect(error == .homeUnusable(path: file.path, reason: "it is a file"))
        #expect(error.description.contains("use another folder as the home"))
        #expect(!error.description.contains("--home"), "command-line wording belongs to the command line")
    }

    @Test func scriptsRunWithTheirChunkNames() throws {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = try EnvScriptHost(configuration: HostConfiguration(home: folder.appendingPathComponent("home")))
        let script = folder.appendingPathComponent("fails.lua").path
        try "return 1\n".write(toFile: script, atomically: true, encoding: .utf8)
        #expect(try host.runScript(atPath: script) == [1])
        try "local t = nil\nreturn t.field\n".write(toFile: script, atomically: true, encoding: .utf8)
        let error = try #require(throws: LuaError.self) { try host.runScript(atPath: script) }
        // Lua shortens long chunk names to about 60 bytes, from the left.
        #expect(error.message.contains("fails.lua:2: attempt to index a nil value"))
        #expect(error.location?.line == 2)
        #expect(throws: HostError.scriptNotReadable(path: folder.path, reason: "it is a folder")) {
            try host.compileScript(atPath: folder.path)
        }
    }
}
