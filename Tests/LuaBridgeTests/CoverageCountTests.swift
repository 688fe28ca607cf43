import Foundation
import LuaBridge
import Testing

/// Line coverage in the bridge: the line events of chunks the host loaded from files, counted in C
/// beside the limits' hook, in coroutines too; nothing before it is started, nor a chunk a name calls a
/// file.
@Suite struct CoverageCountTests {
    @Test func linesOfFileChunksAreCountedInEveryCoroutine() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: nil))
        let source = """
            local total = 0
            for i = 1, 3 do
              total = total + i
            end
            local co = coroutine.wrap(function()
              coroutine.yield(total)
            end)
            return co()
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("counted.lua").path
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        try lua.load(contentsOfFile: file).call()
        #expect(lua.coverage.isEmpty, "nothing is counted before coverage starts")
        try lua.startCoverage()
        #expect(try lua.load(contentsOfFile: file).call() == [6])
        // A chunk that is not a file's is not counted, whatever its name says.
        try lua.load("return 1", chunkName: "=string").call()
        try lua.load("return 1", chunkName: "@made-up.lua").call()
        let counted = lua.coverage
        #expect(Set(counted.keys) == [file])
        let lines = counted[file] ?? [:]
        #expect(lines[1] == 1)
        #expect(lines[3] == 3)
        #expect(lines[6] == 1, "the coroutine's line, counted in its own thread")
        #expect(lines[8] == 1)
    }

    @Test func countingSurvivesManyFilesAndLongFiles() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: nil))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try lua.startCoverage()
        for index in 0..<300 {
            let file = folder.appendingPathComponent("file\(index).lua").path
            try (String(repeating: "\n", count: index * 10) + "return 1").write(toFile: file, atomically: true, encoding: .utf8)
            try lua.load(contentsOfFile: file).call()
        }
        let counted = lua.coverage
        #expect(counted.count == 300)
        #expect(counted[folder.appendingPathComponent("file299.lua").path]?[2991] == 1)
        try lua.close()
        #expect(lua.coverage.isEmpty)
    }
}
