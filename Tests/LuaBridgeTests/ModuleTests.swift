import Foundation
import LuaBridge
import Testing

/// `require`: host modules first, then `.lua` files under the script roots.
@Suite struct ModuleTests {
    func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "luabridge-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path + "/lib", withIntermediateDirectories: true)
        return path
    }

    @Test func hostModulesWinOverFilesAndAreCached() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "return { origin = 'file' }".write(toFile: root + "/flags.lua", atomically: true, encoding: .utf8)
        try "return { twice = function(x) return x * 2 end }".write(toFile: root + "/lib/math2.lua", atomically: true, encoding: .utf8)
        try "return { name = ... }".write(toFile: root + "/lib/init.lua", atomically: true, encoding: .utf8)
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        var module = LuaModule("flags")
        module.value("origin", "host")
        lua.register(module)
        #expect(try lua.execute("return require('flags').origin, require('flags') == require('flags')") == ["host", true])
        #expect(try lua.execute("return require('lib.math2').twice(21), require('lib').name") == [42, "lib"])
    }

    @Test func missingModulesListWhereTheyWereLookedFor() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        let error = try #require(throws: LuaError.self) { try lua.execute("require('nope')", chunkName: "@main.lua") }
        #expect(error.message.hasPrefix("main.lua:1: module 'nope' not found:"))
        #expect(error.message.contains("no host module 'nope'"))
        #expect(error.message.contains("no file '\(root)/nope.lua'"))
    }

    @Test func errorsInsideModulesKeepTheirFileAndLine() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "local x = 1\nerror('broken module')".write(toFile: root + "/bad.lua", atomically: true, encoding: .utf8)
        try "return {".write(toFile: root + "/syntax.lua", atomically: true, encoding: .utf8)
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        let error = try #require(throws: LuaError.self) { try lua.execute("require('bad')") }
        #expect(error.message == "\(root)/bad.lua:2: broken module")
        let syntax = try #require(throws: LuaError.self) { try lua.execute("require('syntax')") }
        #expect(syntax.message.contains("error loading module 'syntax'"))
    }

    @Test func syntaxErrorsNameChunkAndLine() throws {
        let lua = try LuaState()
        let error = try #require(throws: LuaError.self) { try lua.load("local x = \n\n = 2", chunkName: "@broken.lua") }
        #expect(error.kind == .syntax)
        #expect(error.location?.chunk == "broken.lua")
        #expect(error.location?.line == 3)
    }
}
