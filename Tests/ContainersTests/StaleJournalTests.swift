import Foundation
import Testing
@testable import Containers
import Locking

/// A journal that does not belong to the home's current state — put back by hand after later
/// switches, naming a deleted container, or of an older format — is refused with a message naming it,
/// and the home does not change.
@Suite struct StaleJournalTests {
    /// Activates `target` and returns the journal the switch wrote, as it was on disk.
    private func switchKeepingItsJournal(_ fixture: SwitchFixture, to target: UUID) throws -> Data {
        let containers = try fixture.open()
        let journal = HomeLayout(home: fixture.home.url).journal
        let copy = Locked<Data?>(nil)
        containers.observeSwitchSteps { step in
            if step == .journalWritten { copy.withLock { $0 = FileManager.default.contents(atPath: journal) } }
        }
        try containers.activateContainer(uuid: target)
        return try #require(copy.withLock { $0 })
    }

    /// Puts `journal` back in the home, as a person copying it would.
    private func putBack(_ journal: Data, in fixture: SwitchFixture) throws {
        try journal.write(to: URL(fileURLWithPath: HomeLayout(home: fixture.home.url).journal))
    }

    /// Expects opening the home to be refused with a message naming the journal and the reason, the
    /// whole home — bookkeeping included — unchanged; then moves the journal away as the message says
    /// and checks that the home opens as it was.
    private func expectRefused(
        _ fixture: SwitchFixture, because reason: String, active: UUID,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let layout = HomeLayout(home: fixture.home.url)
        let before = try TemporaryHome.snapshot(of: fixture.home.path)
        #expect(sourceLocation: sourceLocation) {
            _ = try fixture.open()
        } throws: { error in
            guard case .refusedJournal(let path, _)? = (error as? ContainerError)?.reason, path == layout.journal else { return false }
            let message = "\(error)"
            return message.contains("'\(layout.journal)'") && message.contains(reason)
                && message.contains("container doctor --repair")
        }
        expectTree(try TemporaryHome.snapshot(of: fixture.home.path), before, "the home", sourceLocation: sourceLocation)

        try FileManager.default.moveItem(atPath: layout.journal, toPath: layout.journal + ".refused")
        #expect(try fixture.open().activeContainer.uuid == active, sourceLocation: sourceLocation)
        try FileManager.default.removeItem(atPath: layout.journal + ".refused")
        #expect(try fixture.verify(sourceLocation: sourceLocation) == active, sourceLocation: sourceLocation)
    }

    @Test func aJournalPutBackAfterALaterSwitchToAThirdContainerIsRefused() throws {
        let fixture = try SwitchFixture(filesPerContainer: 40)
        defer { fixture.home.remove() }
        let journal = try switchKeepingItsJournal(fixture, to: fixture.a.uuid)
        try fixture.open().activate(container: fixture.b)
        try putBack(journal, in: fixture)
        try expectRefused(fixture, because: "names container \(fixture.b.uuid.uuidString) as active", active: fixture.b.uuid)
    }

    @Test func aJournalPutBackAfterSwitchingBackIsRefused() throws {
        let fixture = try SwitchFixture(filesPerContainer: 40)
        defer { fixture.home.remove() }
        // DEFAULT is active again, as when the journal was written, but state.json is another record.
        let journal = try switchKeepingItsJournal(fixture, to: fixture.a.uuid)
        try fixture.open().activateContainer(uuid: Container.defaultUUID)
        try putBack(journal, in: fixture)
        try expectRefused(fixture, because: "was rewritten after the journal was written", active: Container.defaultUUID)
    }

    @Test func aJournalNamingADeletedContainerIsRefused() throws {
        let fixture = try SwitchFixture(filesPerContainer: 20)
        defer { fixture.home.remove() }
        let containers = try fixture.open()
        let doomed = try containers.createNewContainer(name: "Doomed")
        let journal = try switchKeepingItsJournal(fixture, to: doomed.uuid)
        try containers.activateContainer(uuid: Container.defaultUUID)
        try containers.delete(container: doomed)
        try putBack(journal, in: fixture)
        try expectRefused(fixture, because: "names container \(doomed.uuid.uuidString), which no longer exists",
                          active: Container.defaultUUID)
    }

    @Test func aJournalOfTheFormerFormatIsRefused() throws {
        let fixture = try SwitchFixture(filesPerContainer: 20)
        defer { fixture.home.remove() }
        // What version 1 wrote: paths only, so a newcomer could not be told from a moved entry.
        let formerJournal = """
            {"activeAfter": "\(fixture.a.uuid.uuidString)", "metadataAfter": [], "operation": "switch",
             "removeAfter": [], "version": 1,
             "steps": [{"move": {"from": "top0.txt", "to": ".envscript-containers/containers/\(Container.defaultUUID.uuidString)/data/top0.txt"}}]}
            """
        try putBack(Data(formerJournal.utf8), in: fixture)
        try expectRefused(fixture, because: "journal format 1", active: Container.defaultUUID)
    }

    @Test func aRefusedJournalAlsoStopsAnOperationOfAnOpenInstance() throws {
        let fixture = try SwitchFixture(filesPerContainer: 20)
        defer { fixture.home.remove() }
        let containers = try fixture.open()
        let journal = try switchKeepingItsJournal(fixture, to: fixture.a.uuid)
        try containers.activate(container: fixture.b)
        try putBack(journal, in: fixture)
        let before = try TemporaryHome.snapshot(of: fixture.home.path)
        #expect(throws: ContainerError.self) { try containers.activateContainer(uuid: Container.defaultUUID) }
        #expect(throws: ContainerError.self) { try containers.createNewContainer(name: "C") }
        expectTree(try TemporaryHome.snapshot(of: fixture.home.path), before, "the home")
    }

    @Test func aJournalPutBackRightAfterItsOwnSwitchChangesNothing() throws {
        // With no switch since, it cannot be told from a crash just before its removal: it is taken as
        // committed, and only removed.
        let fixture = try SwitchFixture(filesPerContainer: 40)
        defer { fixture.home.remove() }
        let journal = try switchKeepingItsJournal(fixture, to: fixture.a.uuid)
        let before = try TemporaryHome.snapshot(of: fixture.home.path)
        try putBack(journal, in: fixture)
        #expect(try fixture.open().activeContainer.uuid == fixture.a.uuid)
        expectTree(try TemporaryHome.snapshot(of: fixture.home.path), before, "the home")
        #expect(try fixture.verify() == fixture.a.uuid)
    }

    /// Found by the journal fuzz target: a journal whose paths leave the home was replayed, so a damaged
    /// or tampered journal could move or delete files anywhere the user can write.
    @Test(arguments: ["removeAfter", "move", "absolute", "combining"])
    func aJournalWhosePathsLeaveTheHomeIsRefusedAndTouchesNothing(tamper: String) throws {
        let fixture = try SwitchFixture(filesPerContainer: 20)
        defer { fixture.home.remove() }
        let victim = fixture.home.url.deletingLastPathComponent().appendingPathComponent("victim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: victim) }
        try Data("keep me".utf8).write(to: victim.appendingPathComponent("precious.txt"))

        var journal = try #require(
            try JSONSerialization.jsonObject(with: switchKeepingItsJournal(fixture, to: fixture.a.uuid)) as? [String: Any])
        let outside = "../" + victim.lastPathComponent
        switch tamper {
        case "removeAfter":
            journal["removeAfter"] = [".envscript-containers/trash/" + outside.replacingOccurrences(of: "../", with: "../../../")]
        case "move":
            var steps = try #require(journal["steps"] as? [[String: Any]])
            steps.insert(["move": ["from": outside + "/precious.txt", "to": "stolen.txt"]], at: 0)
            journal["steps"] = steps
        case "combining":
            // `..` followed by a slash and a combining mark: one Character, but the kernel sees `..`.
            var steps = try #require(journal["steps"] as? [[String: Any]])
            steps.insert(["move": ["from": "top0.txt/../../\u{301}stolen", "to": "stolen.txt"]], at: 0)
            journal["steps"] = steps
        default:
            journal["steps"] = [["removeDirectoryIfEmpty": ["path": victim.path, "mode": 448]]]
        }
        try putBack(JSONSerialization.data(withJSONObject: journal), in: fixture)
        try expectRefused(fixture, because: "inside the home", active: fixture.a.uuid)
        #expect(FileManager.default.contents(atPath: victim.appendingPathComponent("precious.txt").path) == Data("keep me".utf8))
    }
}
