import Foundation
import Locking
import Testing
@testable import Preferences
import TestSupport

/// The temporary files that killed writers leave beside a store's file (`.envscript.plist.tmp-XXXXXX`)
/// are removed by the next write in that folder; a writer's file that another process still holds
/// locked, or one made a moment ago, never is.
@Suite struct AbandonedTemporaryFileTests {
    @Test func aWriteRemovesKilledWritersFilesButNeverALiveOne() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.url.appendingPathComponent("envscript.plist")
        let old = TimeInterval(WriterTemporaryFile.minimumAge + 60)
        let killed = try LeftoverFile.plant(".envscript.plist.tmp-Ab12Cd", in: folder.url, age: old)
        let killedOtherFile = try LeftoverFile.plant(".state.json.tmp-zzzzzz", in: folder.url, age: old)
        let live = try LeftoverFile.plant(".envscript.plist.tmp-Live12", in: folder.url, age: old)
        let notOurs = try LeftoverFile.plant(".envscript.plist.tmp-notours", in: folder.url, age: old)
        // A writer at work, in another process: it holds its temporary file locked.
        let holder = "import fcntl, sys, time\nf = open(sys.argv[1])\nfcntl.flock(f, fcntl.LOCK_EX)\ntime.sleep(600)\n"
        let writer = try ChildProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", holder, live], in: folder.url, environment: [:])
        defer {
            writer.send(SIGKILL)
            writer.wait()
        }
        try await waitUntil("the writer holds its file", timeout: .seconds(120)) { LeftoverFile.isLockedElsewhere(live) }
        try LeftoverFile.backdate(live, by: old)
        // Made now, right before the write: the wait above may take longer than the minimum age on a
        // loaded machine.
        let justMade = try LeftoverFile.plant(".envscript.plist.tmp-Fresh1", in: folder.url, age: 0)

        try AtomicFile.write(Data("new".utf8), to: target)
        let exists = { FileManager.default.fileExists(atPath: $0) }
        #expect(!exists(killed) && !exists(killedOtherFile), "a killed writer's files are removed")
        #expect(exists(live), "a live writer's file stays")
        #expect(exists(justMade), "a file made a moment ago may not be locked yet: it stays")
        #expect(exists(notOurs), "a name that is not a temporary file's stays")
        #expect(try Data(contentsOf: target) == Data("new".utf8))

        // Once its writer is gone (killed), its file goes with the next write.
        writer.send(SIGKILL)
        writer.wait()
        try LeftoverFile.backdate(justMade, by: 0)
        try AtomicFile.write(Data("newer".utf8), to: target)
        #expect(!exists(live))
        #expect(exists(justMade))
    }
}
