import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A command killed in the middle of writing a container's preferences leaves its temporary file
/// (`.envscript.plist.tmp-XXXXXX`); an export meanwhile leaves it out, and the next write removes it.
@Suite(.timeLimit(.minutes(15))) struct KilledWriterTests {
    /// The temporary files of atomic writes in `folder`.
    static func temporaryFiles(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".tmp-") }.sorted()
    }

    /// The first child process of `pid` (the program `strace` runs).
    static func child(of pid: Int32) -> Int32? {
        ProcessInspection.children(of: pid).first
    }

    @Test func aWriteKilledMidwayLeavesAFileThatExportsSkipAndTheNextWriteRemoves() async throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        let preferences = home + "/Library/Preferences"
        let first = try scratch.run("tweak", "set", "checkout", "limit", "1", "--home", home)
        #expect(first.status == 0, "\(first.standardError)")

        // strace holds the writer in fsync(2) of its temporary file, and there it is killed.
        let writer = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/strace"),
            ["-f", "-o", "/dev/null", "-e", "trace=fsync", "-e", "inject=fsync:delay_enter=600s",
             try EnvScriptProcess.binary().path, "tweak", "set", "checkout", "limit", "2", "--home", home],
            in: scratch.url, environment: EnvScriptProcess.environment([:]))
        defer {
            writer.send(SIGKILL)
            writer.wait()
        }
        try await waitUntil("the writer has made its temporary file", timeout: .seconds(240)) {
            !Self.temporaryFiles(in: preferences).isEmpty
        }
        let traced = try #require(Self.child(of: writer.pid))
        // The writer first (a tracer that dies first lets its tracee run on), then strace.
        kill(traced, SIGKILL)
        writer.send(SIGKILL)
        writer.wait()
        try await waitUntil("the writer is gone", timeout: .seconds(120)) {
            let state = try? String(contentsOfFile: "/proc/\(traced)/stat", encoding: .utf8)
            return state == nil || state!.contains(") Z ")
        }
        let leftovers = Self.temporaryFiles(in: preferences)
        #expect(leftovers.count == 1 && leftovers[0].hasPrefix(".envscript.plist.tmp-"), "\(leftovers)")

        let archive = scratch.url.appendingPathComponent("out.zip").path
        let export = try scratch.run("container", "export", "DEFAULT", "--output", archive, "--home", home)
        #expect(export.status == 0, "\(export.standardError)")
        let listing = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-Z1", archive], in: scratch.url, environment: [:])
        #expect(listing.standardOutput.contains("data/Library/Preferences/envscript.plist"), "\(listing.standardOutput)")
        #expect(!listing.standardOutput.contains(".tmp-"), "\(listing.standardOutput)")

        // Minutes later (a file made a moment ago may be a live writer's not locked yet), the next
        // write removes it.
        for name in leftovers { try LeftoverFile.backdate(preferences + "/" + name, by: 600) }
        let next = try scratch.run("tweak", "set", "checkout", "limit", "3", "--home", home)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(Self.temporaryFiles(in: preferences) == [])
        #expect(try scratch.run("tweak", "get", "checkout", "limit", "--home", home).standardOutput.contains("3"))
    }
}
