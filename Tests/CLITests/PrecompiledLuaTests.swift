import LuaBridge
@testable import Scenarios
import Testing

/// The scenario prelude and the REPL load bytecode compiled at build time (LuaBytecodePlugin); these
/// check it is there for every embedded file and used, carries the names and lines tracebacks rely on,
/// and that bytes which are not bytecode are refused with an error rather than run.
@Suite struct PrecompiledLuaTests {
    private var embedded: [EmbeddedLuaChunk] { ScenarioPrelude.parts + [ReplSession.luaPart] }

    @Test func everyEmbeddedFileHasItsBytecodeAndNothingElseDoes() {
        #expect(Set(PrecompiledLua.chunks.keys) == Set(embedded.map(\.name)))
    }

    @Test func theBytecodeIsUsedWithTheLibraryThatCompiledIt() {
        // The tests run with the Lua library the build compiled with: the prelude loads its bytecode.
        #expect(EmbeddedLuaChunk.bytecodeMatchesLibrary)
        #expect(PrecompiledLua.luaIdent.contains("Lua 5.4"))
    }

    @Test func theBytecodeCarriesTheChunkNameAndLinesOfItsSource() throws {
        let lua = try LuaState(options: LuaOptions(libraries: .debug))
        // The chunk's name and the lines holding code (a stripped chunk has none).
        let describe = try lua.execute("""
            return function(f)
                local info = debug.getinfo(f, "SL")
                local lines = {}
                for line in pairs(info.activelines or {}) do lines[#lines + 1] = line end
                table.sort(lines)
                return info.source .. " " .. #lines .. " " .. table.concat(lines, ",")
            end
            """).first
        guard case .function(let describeFunction) = describe else { Issue.record("no describe function"); return }
        for chunk in embedded {
            let fromBytecode = try lua.load(precompiled: try #require(PrecompiledLua.chunks[chunk.name]), chunkName: "=ignored")
            let fromSource = try lua.load(String(decoding: chunk.source, as: UTF8.self), chunkName: chunk.chunkName)
            guard case .string(let compiled) = try describeFunction.call([.function(fromBytecode)]).first,
                case .string(let parsed) = try describeFunction.call([.function(fromSource)]).first
            else { Issue.record("no description of \(chunk.name)"); continue }
            #expect(compiled == parsed, "\(chunk.name)")
            #expect(compiled.hasPrefix("=[envscript]/\(chunk.name) "), "\(chunk.name)")
            #expect(!compiled.hasSuffix(" 0 "), "\(chunk.name): no line information")
        }
    }

    @Test func bytesThatAreNotBytecodeAreRefused() throws {
        let lua = try LuaState()
        let bytecode = try #require(PrecompiledLua.chunks["format.lua"])
        for (case_, bytes) in [
            ("text", Array("return 1".utf8)),
            ("truncated", Array(bytecode.prefix(bytecode.count / 2))),
            ("another version", [bytecode[0], bytecode[1], bytecode[2], bytecode[3], 0x53] + bytecode.dropFirst(5)),
        ] {
            #expect(throws: LuaError.self, "\(case_)") { try lua.load(precompiled: bytes, chunkName: "=bad") }
        }
        // A script still cannot load bytecode (the sandbox's `load` takes text only).
        let refused = try lua.execute("return select(2, load(...))", arguments: [.bytes(bytecode)]).first
        guard case .string(let message) = refused else { Issue.record("a script loaded bytecode: \(String(describing: refused))"); return }
        #expect(message.contains("binary chunk"))
    }

    @Test func aFileWithoutBytecodeLoadsFromItsSource() throws {
        let lua = try LuaState()
        let chunk = EmbeddedLuaChunk(name: "not-compiled.lua", source: Array("return 6 * 7".utf8))
        #expect(try chunk.load(into: lua).call() == [.integer(42)])
    }
}
