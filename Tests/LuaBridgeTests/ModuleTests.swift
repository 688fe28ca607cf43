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
        #expect(syntax.message.contains("error loading module 'syntax' from file '\(root)/syntax.lua'"))
    }

    @Test func requireReturnsTheModulesOwnValueOnceWithItsMetatable() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The everyday class pattern: the module table is its instances' metatable.
        try """
            local Account = {}
            Account.__index = Account
            function Account.new(balance) return setmetatable({balance = balance}, Account) end
            function Account:deposit(n) self.balance = self.balance + Account.fee(n) end
            function Account.fee(n) return n end
            loads = (loads or 0) + 1
            return Account
            """.write(toFile: root + "/account.lua", atomically: true, encoding: .utf8)
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        let answer = try lua.execute("""
            local Account, where = require('account')
            local a = Account.new(10)
            -- Patching the module is seen by its own functions (a spy or stub on a required module).
            Account.fee = function(n) return n - 1 end
            a:deposit(5)
            return getmetatable(a) == Account, Account.__index == Account, require('account') == Account,
                   a.balance, loads, where, select('#', require('account'))
            """, chunkName: "@\(root)/main.lua")
        // A module already loaded comes back alone, as in stock Lua.
        #expect(answer == [true, true, true, 14, 1, .string("\(root)/account.lua"), 1])
    }

    @Test func packageLoadedAndPreloadBehaveAsInStockLua() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "runs = (runs or 0) + 1\nreturn false".write(toFile: root + "/falsy.lua", atomically: true, encoding: .utf8)
        try "return nil".write(toFile: root + "/nothing.lua", atomically: true, encoding: .utf8)
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        var module = LuaModule("host")
        module.value("x", 1)
        lua.register(module)
        let answer = try lua.execute("""
            package.preload.made = function(name, data) return {name = name, data = data} end
            local made, data = require('made')
            package.loaded.given = 'given value'
            -- A module that returned false is not loaded for good: stock Lua runs it again.
            local f1, f2 = require('falsy'), require('falsy')
            local n = require('nothing')
            local _, hostData = require('host')
            return made.name, made.data, data, require('given'), f1, f2, runs, n, package.loaded.nothing, hostData
            """)
        #expect(answer == ["made", ":preload:", ":preload:", "given value", false, false, 2, true, true, ":host:"])
    }

    @Test func packagePathDecidesWhereFilesAreLookedForButOnlyInsideTheRoots() throws {
        let root = try temporaryFolder()
        let outside = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.createDirectory(atPath: root + "/src/deep", withIntermediateDirectories: true)
        try "return 'from src'".write(toFile: root + "/src/deep/mod.lua", atomically: true, encoding: .utf8)
        try "return 'leaked'".write(toFile: outside + "/secret.lua", atomically: true, encoding: .utf8)
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        // The roots' templates first, then stock Lua's own (looked at only inside a root).
        #expect(try lua.execute("return package.path").first?.stringValue?.hasPrefix("\(root)/?.lua;\(root)/?/init.lua;") == true)
        let answer = try lua.execute("""
            package.path = '\(root)/src/?.lua;' .. package.path
            return require('deep.mod')
            """)
        #expect(answer == ["from src", .string("\(root)/src/deep/mod.lua")])
        // A template outside every root is not even looked at, and says so.
        let refused = try #require(throws: LuaError.self) {
            try lua.execute("package.path = '\(outside)/?.lua;\(root)/../\(outside.split(separator: "/").last!)/?.lua' return require('secret')")
        }
        #expect(refused.message.contains("no file '\(outside)/secret.lua' (outside the script roots)"), "\(refused.message)")
        #expect(refused.message.contains("module 'secret' not found"))
    }

    @Test func searchpathLooksOnlyInsideTheRootsAndABadPathIsAnError() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "".write(toFile: root + "/lib/XXxX", atomically: true, encoding: .utf8)
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        #expect(try lua.execute("return package.searchpath('--x-', '\(root)/lib/?', '-', 'X')") == [.string("\(root)/lib/XXxX")])
        #expect(try lua.execute("return package.searchpath('a.b', '\(root)/?.lua;/etc/?')")
            == [.nil, .string("no file '\(root)/a/b.lua'\n\tno file '/etc/a/b' (outside the script roots)")])
        let bad = try #require(throws: LuaError.self) { try lua.execute("package.path = {} require('x')") }
        #expect(bad.message.contains("'package.path' must be a string"))
    }

    /// Found in review: a zero byte (the kernel reads up to it) or a symbolic link followed by `..`
    /// made the answer tell whether a file outside the roots exists. Both answers must now read alike.
    @Test func nothingTellsWhetherAFileOutsideTheRootsExists() throws {
        let root = try temporaryFolder()
        let outsideName = "outside-\(UUID().uuidString)"
        let outside = NSTemporaryDirectory() + outsideName
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try "x".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/self", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: root + "/zq1", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: root + "/zq2", withDestinationPath: outside + "-missing")
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        func answer(_ name: String, _ path: String) throws -> String {
            let values = try lua.execute("return package.searchpath(...)", arguments: [.string(name), .string(path), ""])
            return (values.last?.stringValue ?? "").replacingOccurrences(of: name, with: "NAME")
        }
        // Up to '/', into the temporary folder; after the zero byte, back up and into the root.
        let climb = String(repeating: "../", count: 12) + NSTemporaryDirectory().dropFirst()
        let back = String(repeating: "/..", count: 40) + root
        let existing = outsideName, missing = outsideName + "-missing"
        #expect(try answer(existing, "\(root)/self/../?") == answer(missing, "\(root)/self/../?"))
        #expect(try answer("\(climb)/\(existing)\u{0}\(back)", "\(root)/?") == answer("\(climb)/\(missing)\u{0}\(back)", "\(root)/?"))
        #expect(try answer("zq1", "\(root)/?") == answer("zq2", "\(root)/?"))
        #expect(try answer("zq1", "\(root)/?").contains("leads outside the script roots or to nothing"))
    }

    /// Found in review: the search runs in Swift, beyond the instruction budget and the memory cap.
    @Test func aSearchIsBoundedWhateverThePathOrTheName() throws {
        let lua = try LuaState(options: LuaOptions(scriptRoots: [NSTemporaryDirectory()]))
        let many = try #require(throws: LuaError.self) { try lua.execute("return package.searchpath('x', ('./?;'):rep(3e6))") }
        #expect(many.message.contains("a search path of 3000001 templates: at most 1000 are searched"))
        let long = try lua.execute("return package.searchpath(('n'):rep(1 << 20), ('?'):rep(300))")
        #expect(long.first == .nil)
        #expect(long.last?.stringValue?.contains("longer than a path can be") == true)
    }

    @Test func aModuleRequiredThroughPcallFindsItsNeighbours() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "local ok, n = pcall(require, 'neighbour') return ok and n".write(toFile: root + "/lib/user.lua", atomically: true, encoding: .utf8)
        try "return 42".write(toFile: root + "/lib/neighbour.lua", atomically: true, encoding: .utf8)
        let lua = try LuaState(options: LuaOptions(scriptRoots: [root]))
        #expect(try lua.execute("return (require('lib.user'))", chunkName: "@\(root)/main.lua") == [42])
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
