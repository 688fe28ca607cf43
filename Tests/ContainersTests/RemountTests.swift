import Foundation
import TestSupport
import Testing
@testable import Containers

/// A journal left by a killed switch is finished after the file system comes back with another device
/// number (issue #32, point 15): a loop device, a device-mapper node or a USB disk after a power cut.
@Suite(.serialized) struct RemountTests {
    /// Kills a switch of `fixture` to A after a few moves, leaving its journal.
    private func killSwitchToA(_ fixture: SwitchFixture) throws {
        let arguments = ["switch", fixture.home.path, fixture.a.uuid.uuidString]
            + SwitchFixture.excludeRules.flatMap { ["--exclude", $0] }
        let outcome = try CrashHelperProcess.run(arguments, crashAt: "moved-3")
        #expect(outcome.killed, "the helper should die after its third move: \(outcome.errors)")
        #expect(FileManager.default.fileExists(atPath: HomeLayout(home: fixture.home.url).journal))
    }

    @Test func aJournalLeftBeforeARemountThroughAnotherDeviceIsFinished() throws {
        let disk = try MountedFileSystem.ext4Image(mebibytes: 32)
        defer { disk.unmount() }
        let fixture = try SwitchFixture(filesPerContainer: 100, in: disk.url)
        try killSwitchToA(fixture)
        let device = try disk.deviceNumber
        try disk.remountThroughAnotherLoopDevice()
        #expect(try disk.deviceNumber != device, "the file system came back with another device number")

        _ = try fixture.open()
        #expect(try fixture.verify() == fixture.a.uuid)
    }

    @Test func aJournalOfFormatTwoWithDeviceNumbersIsStillFinished() throws {
        let fixture = try SwitchFixture(filesPerContainer: 60)
        defer { fixture.home.remove() }
        let activations = try #require(try fixture.open().container(uuid: fixture.a.uuid)).activatedCount
        try killSwitchToA(fixture)
        // Rewrite the journal as the previous version wrote it — format 2, each identity with a device
        // number (here another device's), the records to write at the commit rather than staged — and
        // remove the staged records, as that version never made them.
        let layout = HomeLayout(home: fixture.home.url)
        let url = URL(fileURLWithPath: layout.journal)
        var journal = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        func withDevice(_ identity: Any?) -> Any? {
            guard var identity = identity as? [String: Any] else { return identity }
            identity["device"] = 4242
            return identity
        }
        journal["version"] = 2
        for staged in journal["staged"] as? [[String: Any]] ?? [] {
            try FileManager.default.removeItem(atPath: layout.absolute(try #require(staged["stagedAt"] as? String)))
        }
        journal.removeValue(forKey: "staged")
        var stamp = try #require(journal["stateBefore"] as? [String: Any])
        stamp["identity"] = withDevice(stamp["identity"])
        journal["stateBefore"] = stamp
        journal["steps"] = (journal["steps"] as? [[String: Any]] ?? []).map { step -> [String: Any] in
            guard var move = step["move"] as? [String: Any] else { return step }
            move["entry"] = withDevice(move["entry"])
            return ["move": move]
        }
        try JSONSerialization.data(withJSONObject: journal).write(to: url)

        let reopened = try fixture.open()
        #expect(try fixture.verify() == fixture.a.uuid)
        #expect(try reopened.container(uuid: fixture.a.uuid)?.activatedCount == activations + 1,
                "the metadata a format 2 journal records is written at its commit")
    }
}
