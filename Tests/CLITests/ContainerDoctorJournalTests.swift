import Foundation
import TestSupport
import Testing

/// `envscript container doctor [--repair]` on a home whose journal is pending: an undo cut short
/// (`journal.undo.json`) is undone, never taken for leftover trash, and the records a pending journal
/// staged are never removed as temporary files. Against the built binary, with strace injecting the
/// failures.
@Suite(.timeLimit(.minutes(15))) struct ContainerDoctorJournalTests {
    typealias Home = ContainerDoctorTests.Home

    /// A home never used by EnvScript, holding `Documents/a.txt` and `userfile.txt`.
    static func makeHome(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path + "/Documents", withIntermediateDirectories: true)
        try "a".write(toFile: path + "/Documents/a.txt", atomically: false, encoding: .utf8)
        try "user".write(toFile: path + "/userfile.txt", atomically: false, encoding: .utf8)
    }

    /// Makes `home` (see ``makeHome(_:)``) and runs `container clean DEFAULT` on it under strace: its
    /// second move (userfile.txt into the trash) fails with EIO, so the clean is undone — and the process
    /// is killed at the first fsync(2) after its journal became `journal.undo.json`, before `Documents`
    /// came back out of the trash.
    static func cleanCutShortWhileUndoing(_ home: String, in scratch: Scratch) throws {
        // Which fsync of the moving thread follows the rename to journal.undo.json: a probe home tells.
        let probe = scratch.url.path + "/probe-" + UUID().uuidString.prefix(8)
        try makeHome(probe)
        let trace = scratch.url.path + "/trace.txt"
        let traced = try EnvScriptProcess.runUnderStrace(
            ["-o", trace, "-e", "trace=rename,renameat2,fsync", "-e", "inject=renameat2:error=EIO:when=2"],
            ["container", "clean", "DEFAULT", "--home", probe, "--no-init"], in: scratch.url)
        #expect(traced.status == 1, "\(traced.standardError)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let undo = try #require(calls.first { $0.contains("rename(") && $0.contains("/journal.undo.json\")") }, "\(calls)")
        let thread = undo.split(separator: " ").first
        let mine = calls.filter { $0.split(separator: " ").first == thread }
        let undoIndex = try #require(mine.firstIndex(of: undo))
        let fsyncs = mine.enumerated().filter { $0.element.contains("fsync(") }
        let when = try #require(fsyncs.firstIndex { $0.offset > undoIndex }) + 1

        try makeHome(home)
        _ = try EnvScriptProcess.runUnderStrace(
            ["-e", "inject=renameat2:error=EIO:when=2", "-e", "inject=fsync:signal=SIGKILL:when=\(when)"],
            ["container", "clean", "DEFAULT", "--home", home, "--no-init"], in: scratch.url)
    }

    @Test func anUndoCutShortIsReportedAndUndoneAndItsTrashKept() throws {
        let home = Home(scratch: try Scratch())
        try Self.cleanCutShortWhileUndoing(home.path, in: home.scratch)
        let undoJournal = home.bookkeeping + "/journal.undo.json"
        #expect(FileManager.default.fileExists(atPath: undoJournal))
        #expect(!FileManager.default.fileExists(atPath: home.bookkeeping + "/journal.json"))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/Documents"))
        let trashed = home.names(in: home.bookkeeping + "/trash").map { home.bookkeeping + "/trash/" + $0 + "/live/Documents/a.txt" }
        #expect(trashed.count == 1 && home.read(trashed[0]) == "a", "\(trashed)")

        let report = try home.run("container", "doctor")
        #expect(report.status == 1, "\(report.standardOutput)\(report.standardError)")
        #expect(report.standardOutput.contains("leftover journal: '\(undoJournal)'"), "\(report.standardOutput)")
        #expect(report.standardOutput.contains("was being undone"), "\(report.standardOutput)")
        #expect(!report.standardOutput.contains("leftover trash"), "\(report.standardOutput)")
        #expect(!report.standardOutput.contains("half switched"), "\(report.standardOutput)")
        #expect(!report.standardOutput.contains("as '\(home.bookkeeping)/journal.json'"), "\(report.standardOutput)")
        // Reporting changed nothing.
        #expect(FileManager.default.fileExists(atPath: undoJournal) && home.read(trashed[0]) == "a")

        let repair = try home.run("container", "doctor", "--repair")
        #expect(repair.status == 0, "\(repair.standardOutput)\(repair.standardError)")
        #expect(repair.standardOutput.contains("undid the change from its journal"), "\(repair.standardOutput)")
        #expect(home.read(home.path + "/Documents/a.txt") == "a")
        #expect(home.read(home.path + "/userfile.txt") == "user")
        #expect(home.names(in: home.path) == [".envscript-containers", "Documents", "userfile.txt"])
        #expect(!FileManager.default.fileExists(atPath: undoJournal))
        let clean = try home.run("container", "doctor")
        #expect(clean.status == 0 && clean.standardOutput.contains("is consistent"), "\(clean.standardOutput)")
        let list = try home.run("container", "list")
        #expect(list.status == 0 && list.standardError.isEmpty, "\(list.standardError)")
        #expect(home.read(home.path + "/Documents/a.txt") == "a")
    }

    @Test func theRecordsAPendingJournalStagedSurviveAFailedRepairOfIt() throws {
        let home = Home(scratch: try Scratch())
        for name in ["a", "b", "c"] { try home.write("default \(name)", to: home.path + "/" + name) }
        let b = try home.create("B")
        for name in ["x", "y"] { try home.write("B \(name)", to: home.folder(of: b) + "/data/" + name) }
        // Killed after one entry moved: journal.json stays, with the new state.json and B's record staged.
        let crashed = try EnvScriptProcess.run(
            ["switch", home.path, "B"], in: home.scratch.url, environment: ["ENVSCRIPT_CRASH_AT": "moved-1"],
            binary: "ContainersCrashHelper")
        #expect(crashed.status != 0)
        #expect(FileManager.default.fileExists(atPath: home.bookkeeping + "/journal.json"))
        let staged = (home.names(in: home.bookkeeping).filter { $0.hasPrefix(".state.json.tmp-") }.map { home.bookkeeping + "/" + $0 })
            + home.names(in: home.folder(of: b)).filter { $0.hasPrefix(".container.json.tmp-") }.map { home.folder(of: b) + "/" + $0 }
        #expect(staged.count == 2, "\(staged)")
        // A temporary file no journal names is still one to remove.
        let stray = home.bookkeeping + "/.state.json.tmp-STRAY1"
        try home.write("half written", to: stray)

        let report = try home.run("container", "doctor", "--json")
        #expect(report.status == 1)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any])
        let entries = try #require(parsed["inconsistencies"] as? [[String: Any]])
        #expect(entries.filter { $0["kind"] as? String == "temporaryFile" }.compactMap { $0["path"] as? String } == [stray], "\(entries)")
        #expect(entries.contains { $0["kind"] as? String == "leftoverJournal" }, "\(entries)")

        // The journal's repair fails: every move and every rename fails (EIO), undoing too.
        let failed = try EnvScriptProcess.runUnderStrace(
            ["-e", "inject=renameat2:error=EIO", "-e", "inject=rename:error=EIO"],
            ["container", "doctor", "--repair", "--home", home.path], in: home.scratch.url)
        #expect(failed.status == 1, "\(failed.standardOutput)\(failed.standardError)")
        #expect(failed.standardOutput.contains("the repair failed"), "\(failed.standardOutput)")
        for file in staged { #expect(FileManager.default.fileExists(atPath: file), "\(file) was removed") }
        #expect(!FileManager.default.fileExists(atPath: stray))
        #expect(FileManager.default.fileExists(atPath: home.bookkeeping + "/journal.json"))

        // The next opening finishes the switch from its journal and its staged records.
        let list = try home.run("container", "list")
        #expect(list.status == 0, "\(list.standardError)")
        #expect(home.names(in: home.path) == [".envscript-containers", "x", "y"])
        for name in ["a", "b", "c"] { #expect(home.read(home.folder(of: "00000000-0000-0000-0000-000000000000") + "/data/" + name) == "default \(name)") }
        for file in staged { #expect(!FileManager.default.fileExists(atPath: file)) }
        let clean = try home.run("container", "doctor")
        #expect(clean.status == 0 && clean.standardOutput.contains("is consistent"), "\(clean.standardOutput)")
    }

    @Test func aReadOnlyHomeWithAnUndoCutShortIsRefusedNotRead() throws {
        let scratch = try Scratch()
        let mounted = try MountedFileSystem.tmpfs(kibibytes: 4096)
        defer { mounted.unmount() }
        let home = mounted.url.appendingPathComponent("home").path
        try Self.cleanCutShortWhileUndoing(home, in: scratch)
        let undoJournal = home + "/.envscript-containers/journal.undo.json"
        #expect(FileManager.default.fileExists(atPath: undoJournal))
        try mounted.remountReadOnly()

        for arguments in [["container", "list"], ["container", "info"]] {
            let outcome = try scratch.run(arguments + ["--home", home])
            #expect(outcome.status == 1, "\(arguments): \(outcome.standardOutput)")
            #expect(outcome.standardError.contains("'\(undoJournal)'"), "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.contains("Read-only file system"), "\(arguments): \(outcome.standardError)")
        }
    }
}
