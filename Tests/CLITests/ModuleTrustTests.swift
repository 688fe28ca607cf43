import Foundation
import Testing
import TestSupport

/// `require` and `loadfile` run a Lua file only if it belongs to this user (or root) and users outside
/// its group cannot change it, as a start-up script is trusted: another user's `util.lua` dropped in a
/// shared folder is not run.
@Suite(.timeLimit(.minutes(15))) struct ModuleTrustTests {
    @Test func anotherUsersModuleInASharedFolderIsNotRun() throws {
        let scratch = try Scratch()
        chmod(scratch.url.path, 0o1777)
        let other = try LocalUser()
        let dropped = try other.run("/bin/sh", ["-c", "echo \"error('another user ran code here')\" > util.lua"], in: scratch.url)
        #expect(dropped.status == 0, "\(dropped.standardError)")
        try scratch.write("main.lua", """
            print(pcall(require, 'util'))
            print(loadfile('util.lua'))
            """)
        let outcome = try scratch.run("run", "--no-init", "main.lua")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("another user ran code here"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("module 'util': './util.lua' is not loaded: it belongs to another user (uid \(other.uid))"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("nil\tcannot open util.lua: it belongs to another user"), "\(outcome.standardOutput)")
    }

    @Test func aModuleAnyoneMayChangeIsNotRunAndOneOfOursIs() throws {
        let scratch = try Scratch()
        let module = try scratch.write("shared.lua", "return 'shared'\n")
        try scratch.write("mine.lua", "return 'mine'\n")
        chmod(module, 0o666)
        try scratch.write("main.lua", "print(pcall(require, 'shared'))\nprint(require('mine'))\n")
        let outcome = try scratch.run("run", "--no-init", "main.lua")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("false\t") && outcome.standardOutput.contains("users other than its owner may change it"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("\nmine"), "\(outcome.standardOutput)")
        // A group-writable file of ours (a umask of 002) still loads.
        chmod(module, 0o664)
        let group = try scratch.run("run", "--no-init", "main.lua")
        #expect(group.standardOutput.hasPrefix("true\tshared"), "\(group.standardOutput)")
    }

    /// A flag file of another user, or one anybody may change, is read (flag files are data) with a
    /// warning: its values decide what the application does.
    @Test func aFlagFileAnyoneMayChangeIsReadWithAWarning() throws {
        let scratch = try Scratch()
        let file = try scratch.write("flags.json", #"{"f": {"v": {"Value": 1}}}"#)
        chmod(file, 0o666)
        try scratch.write("main.lua", "tweak.stack{ tweak.json('flags.json') }\nprint(tweak.value('f', 'v'))\n")
        let outcome = try scratch.run("run", "--no-init", "main.lua")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasSuffix("1\n"))
        #expect(outcome.standardError.contains("tweak.json: \(URL(fileURLWithPath: file).resolvingSymlinksInPath().path) is read although users other than its owner may change it"), "\(outcome.standardError)")
        chmod(file, 0o644)
        let mine = try scratch.run("run", "--no-init", "main.lua")
        #expect(!mine.standardError.contains("is read although"), "\(mine.standardError)")
    }
}
