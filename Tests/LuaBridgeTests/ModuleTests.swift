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

    @Test func modulesFindTheirNeighboursBesideThem() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "return { value = require('neighbour').value + 1 }".write(toFile: root + "/lib/user.lua", atomically: true, encoding: .utf8)
        try "return { value = 41 }".write(toFile: root + "/lib/neighbour.lua", atomically: true, encoding: .utf8)
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        #expect(try lua.execute("return require('lib.user').value", chunkName: "@\(root)/main.lua") == [42])
    }

    @Test func scriptsOutsideTheRootsFindNothingBesideThemAndLinksCannotLeadOut() throws {
        let root = try temporaryFolder()
        let outside = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try "return { leaked = true }".write(toFile: outside + "/secret.lua", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/link.lua", withDestinationPath: outside + "/secret.lua")
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        // A chunk named after a file outside every root gets no search beside it.
        let beside = try #require(throws: LuaError.self) { try lua.execute("return require('secret')", chunkName: "@\(outside)/main.lua") }
        #expect(beside.message.contains("module 'secret' not found"))
        #expect(!beside.message.contains(outside), "\(beside.message)")
        let linked = try #require(throws: LuaError.self) { try lua.execute("return require('link')", chunkName: "@main.lua") }
        #expect(linked.message.contains("module 'link': '\(root)/link.lua' leads outside the script roots"), "\(linked.message)")
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

    /// Found by the bridge's tests under AddressSanitizer: a module holding a function of its own state
    /// kept the state alive (module -> reference -> state -> module) after its owner let it go.
    @Test func aModuleHoldingAFunctionOfItsStateIsFreedWithTheState() throws {
        weak var function: LuaFunctionRef?
        do {
            let lua = try LuaState()
            let loaded = try lua.load("return 1", chunkName: "=f")
            function = loaded
            var module = LuaModule("m")
            module.value("f", .function(loaded))
            lua.register(module)
            #expect(try lua.execute("return require('m').f()") == [.integer(1)])
        }
        #expect(function == nil, "the state and its module were freed")
    }
}
