import Foundation
import LuaBridge
import Testing

/// Line coverage in the bridge: the line events of chunks loaded from files, counted in C beside the
/// limits' hook, in coroutines too, and nothing before it is started.
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
        try lua.load(source, chunkName: "@before.lua").call()
        #expect(lua.coverage.isEmpty, "nothing is counted before coverage starts")
        try lua.startCoverage()
        #expect(try lua.load(source, chunkName: "@counted.lua").call() == [6])
        // A chunk that is not a file's is not counted.
        try lua.load("return 1", chunkName: "=string").call()
        let counted = lua.coverage
        #expect(Set(counted.keys) == ["counted.lua"])
        let lines = counted["counted.lua"] ?? [:]
        #expect(lines[1] == 1)
        #expect(lines[3] == 3)
        #expect(lines[6] == 1, "the coroutine's line, counted in its own thread")
        #expect(lines[8] == 1)
    }

    @Test func countingSurvivesManyFilesAndLongFiles() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: nil))
        try lua.startCoverage()
        for file in 0..<300 {
            try lua.load(String(repeating: "\n", count: file * 10) + "return 1", chunkName: "@file\(file).lua").call()
        }
        let counted = lua.coverage
        #expect(counted.count == 300)
        #expect(counted["file299.lua"]?[2991] == 1)
        try lua.close()
        #expect(lua.coverage.isEmpty)
    }
}
