import Foundation
import Testing

/// Scripts reach files only under the project folder and hosts only when granted: refusals name the
/// permission to add, and never quote a file the script was not allowed to read.
@Suite(.timeLimit(.minutes(15))) struct PermissionTests {
    /// A scratch folder with a project folder inside it and a secret beside it.
    static func project() throws -> (scratch: Scratch, project: URL, secret: String) {
        let scratch = try Scratch()
        let project = scratch.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let secret = try scratch.write("creds.json", #"{"password": "hunter2"}"#)
        return (scratch, project, secret)
    }

    @Test func filesOutsideTheProjectFolderAreRefusedWithoutLeakingThem() throws {
        let (scratch, project, secret) = try Self.project()
        for path in [secret, "../creds.json", "/proc/self/environ"] {
            try "tweak.json(\(String(reflecting: path)))\n".write(
                to: project.appendingPathComponent("read.lua"), atomically: true, encoding: .utf8)
            let outcome = try EnvScriptProcess.run(["run", "--no-init", "read.lua"], in: project)
            #expect(outcome.status == 1, "\(path): \(outcome.standardError)")
            #expect(outcome.standardError.contains("tweak.json: reading '\(path)' is not allowed"), "\(outcome.standardError)")
            #expect(outcome.standardError.contains("--allow-read"))
            #expect(!outcome.standardError.contains("password") && !outcome.standardError.contains("unexpected"))
        }
        _ = scratch
    }

    @Test func aSymbolicLinkCannotLeadOutOfTheProject() throws {
        let (scratch, project, secret) = try Self.project()
        try FileManager.default.createSymbolicLink(atPath: project.appendingPathComponent("link.json").path, withDestinationPath: secret)
        try "tweak.json('link.json')\n".write(to: project.appendingPathComponent("read.lua"), atomically: true, encoding: .utf8)
        let outcome = try EnvScriptProcess.run(["run", "--no-init", "read.lua"], in: project)
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("tweak.json: reading 'link.json' is not allowed: a symbolic link on its way leads outside"), "\(outcome.standardError)")
        // Where the link leads is not said: the script could not have learnt it otherwise.
        #expect(!outcome.standardError.contains(scratch.url.resolvingSymlinksInPath().path + " ") && !outcome.standardError.contains("creds"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("password"))
    }

    @Test func allowReadGrantsAFolder() throws {
        let (scratch, project, _) = try Self.project()
        try #"{"checkout": {"max_items": {"Value": 3}}}"#.write(
            to: scratch.url.appendingPathComponent("flags.json"), atomically: true, encoding: .utf8)
        try "tweak.stack{tweak.json('../flags.json')} print(tweak.value('checkout', 'max_items', 0))\n".write(
            to: project.appendingPathComponent("read.lua"), atomically: true, encoding: .utf8)
        let refused = try EnvScriptProcess.run(["run", "--no-init", "read.lua"], in: project)
        #expect(refused.status == 1)
        let granted = try EnvScriptProcess.run(["run", "--no-init", "--allow-read", scratch.url.path, "read.lua"], in: project)
        #expect(granted.status == 0, "\(granted.standardError)")
        #expect(granted.standardOutput == "3\n")
    }

    @Test func exportWritesOnlyUnderTheProjectUnlessAllowed() throws {
        let (scratch, project, _) = try Self.project()
        try "container.export('DEFAULT', '../out.zip')\n".write(to: project.appendingPathComponent("export.lua"), atomically: true, encoding: .utf8)
        let refused = try EnvScriptProcess.run(["run", "--no-init", "export.lua"], in: project)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("container.export: writing '../out.zip' is not allowed"))
        #expect(refused.standardError.contains("--allow-write"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out.zip").path))
        let granted = try EnvScriptProcess.run(["run", "--no-init", "--allow-write", scratch.url.path, "export.lua"], in: project)
        #expect(granted.status == 0, "\(granted.standardError)")
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out.zip").path))
    }

    @Test func theNetworkIsClosedUnlessAHostIsGranted() throws {
        let scratch = try Scratch()
        try scratch.write("remote.lua", "tweak.remote{url = 'http://127.0.0.1:9/flags.json'}\nprint('declared')\n")
        let refused = try scratch.run("run", "--no-init", "remote.lua")
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("tweak.remote: network access to 127.0.0.1:9 is not allowed; grant it with --allow-net 127.0.0.1:9"))
        for grant in ["127.0.0.1:9", "127.0.0.1", "*"] {
            let granted = try scratch.run("run", "--no-init", "--allow-net", grant, "remote.lua")
            #expect(granted.status == 0, "\(grant): \(granted.standardError)")
            #expect(granted.standardOutput.contains("declared"))
        }
        let otherPort = try scratch.run("run", "--no-init", "--allow-net", "127.0.0.1:8080", "remote.lua")
        #expect(otherPort.status == 1)
        let malformed = try scratch.run("run", "--no-init", "--allow-net", "http://x/", "remote.lua")
        #expect(malformed.status == 2)
        #expect(malformed.standardError.contains("--allow-net"))
    }

    @Test func openingALibraryPrintsAWarningNamingIt() throws {
        let scratch = try Scratch()
        try scratch.write("ok.lua", "")
        let outcome = try scratch.run("run", "--no-init", "--allow", "io", "--allow", "debug", "ok.lua")
        #expect(outcome.status == 0)
        #expect(outcome.standardError.contains("warning: --allow io opens Lua's whole io library"))
        #expect(outcome.standardError.contains("warning: --allow debug opens Lua's debug library"))
        let quiet = try scratch.run("run", "--no-init", "ok.lua")
        #expect(!quiet.standardError.contains("warning"))
    }
}
