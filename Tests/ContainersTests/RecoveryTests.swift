import Foundation
import Testing
@testable import Containers

/// Recovery from a journal whose steps were done up to any point, checked in-process step by step.
/// (CrashTests kills real processes; these reach every prefix deterministically and fast.)
@Suite struct RecoveryTests {
    /// The journal a switch from the active container to `target` would write.
    private func plannedSwitch(_ containers: AppContainer, to target: Container) throws -> Journal {
        let layout = HomeLayout(home: containers.home)
        var planner = SwitchPlanner(layout: layout, rules: ExcludeRules(SwitchFixture.excludeRules))
        let active = try containers.activeContainer
        try planner.planMoveOut(into: HomeLayout.dataFolder(active.uuid), owner: active.name)
        try planner.planMoveIn(of: target.uuid)
        return Journal(operation: "test", steps: planner.steps, activeAfter: target.uuid,
                       metadataAfter: [target.activated(at: Date())], removeAfter: [])
    }

    @Test func aJournalInterruptedAfterAnyStepIsFinishedWhenTheHomeIsOpened() throws {
        let fixture = try SwitchFixture(filesPerContainer: 40)
        defer { fixture.home.remove() }
        let journal = try plannedSwitch(fixture.open(), to: fixture.a)
        #expect(journal.steps.count > 8, "the plan descends into Library and moves several entries")

        for done in 0...journal.steps.count {
            let trial = try withCopiedHome(fixture, label: "prefix\(done)")
            defer { trial.home.remove() }
            let layout = HomeLayout(home: trial.home.url)
            let runner = JournalRunner(layout: layout, report: { _ in })
            let recorded = try runner.write(journal)
            #expect(recorded.steps.allSatisfy { step in
                if case .move(_, _, let entry) = step { return entry != nil }
                return true
            }, "every moved entry's identity is recorded")
            var partial = recorded
            partial.steps = Array(recorded.steps.prefix(done))
            try runner.rollForward(partial)

            _ = try trial.open()
            #expect(try trial.verify() == fixture.a.uuid, "after \(done) of \(journal.steps.count) steps")
        }
    }

    @Test func aJournalReplayedTwiceChangesNothingMore() throws {
        let fixture = try SwitchFixture(filesPerContainer: 30)
        defer { fixture.home.remove() }
        let journal = try plannedSwitch(fixture.open(), to: fixture.b)
        let runner = JournalRunner(layout: HomeLayout(home: fixture.home.url), report: { _ in })
        let recorded = try runner.write(journal)
        try runner.rollForward(recorded)
        try runner.rollForward(recorded)
        try runner.write(recorded) // as if the crash came before the journal was removed
        _ = try fixture.open()
        #expect(try fixture.verify() == fixture.b.uuid)
    }

    @Test func aStagedButUnplacedJournalLeavesTheOldContainer() throws {
        let fixture = try SwitchFixture(filesPerContainer: 20)
        defer { fixture.home.remove() }
        let layout = HomeLayout(home: fixture.home.url)
        try Data("{\"partial".utf8).write(to: URL(fileURLWithPath: layout.bookkeeping + "/.journal.json.tmp-ABC123"))
        _ = try fixture.open()
        #expect(try fixture.verify() == Container.defaultUUID)
        #expect(!FileManager.default.fileExists(atPath: layout.bookkeeping + "/.journal.json.tmp-ABC123"))
    }

    @Test func aJournalThatCannotBeFinishedIsUndone() throws {
        let fixture = try SwitchFixture(filesPerContainer: 30)
        defer { fixture.home.remove() }
        var journal = try plannedSwitch(fixture.open(), to: fixture.a)
        // A step that must fail (its parent folder does not exist), two thirds of the way through.
        journal.steps.insert(.makeDirectory(path: "no/such/parent", mode: 0o755), at: journal.steps.count * 2 / 3)
        let runner = JournalRunner(layout: HomeLayout(home: fixture.home.url), report: { _ in })
        let recorded = try runner.write(journal)
        #expect(throws: ContainerError.self) { try runner.rollForward(recorded) }

        _ = try fixture.open()
        #expect(try fixture.verify() == Container.defaultUUID, "rolled back to the old container")
    }

    @Test func aStepFailingDuringASwitchIsUndoneAndReported() throws {
        let fixture = try SwitchFixture(filesPerContainer: 30)
        defer { fixture.home.remove() }
        let containers = try fixture.open()
        var journal = try plannedSwitch(containers, to: fixture.b)
        journal.steps.insert(.makeDirectory(path: "no/such/parent", mode: 0o755), at: journal.steps.count - 2)
        #expect {
            var change = ChangeInProgress()
            try containers.run(journal, in: &change)
        } throws: { error in
            guard case .io(let path, let underlying as SystemCallError)? = (error as? ContainerError)?.reason else { return false }
            return path.hasSuffix("no/such/parent") && underlying.code == ENOENT
        }
        #expect(try fixture.verify() == Container.defaultUUID, "every move done was undone")
    }
}

/// A copy of the fixture's home in a new temporary folder.
func withCopiedHome(_ fixture: SwitchFixture, label: String) throws -> SwitchFixture {
    var copy = fixture
    let destination = try TemporaryHome(label)
    try FileManager.default.removeItem(at: destination.url)
    try FileManager.default.copyItem(at: fixture.home.url, to: destination.url)
    copy.rehome(destination)
    return copy
}

@Suite struct LeftoverTests {
    @Test func leftoversOfInterruptedOperationsAreClearedWhenTheHomeIsOpened() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["a": "a"])
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let layout = HomeLayout(home: home.url)
        // A reset interrupted after renaming the bookkeeping of an earlier life of the home, a clone
        // interrupted while copying into the trash, and atomic writes interrupted before their rename.
        try FileManager.default.createDirectory(atPath: layout.removedBookkeeping + "/containers/x", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: layout.trash + "/staging/data/deep", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: layout.trash + "/staging/container.json"))
        try Data("{".utf8).write(to: URL(fileURLWithPath: layout.bookkeeping + "/.state.json.tmp-XYZ"))
        try Data("{".utf8).write(to: URL(fileURLWithPath: layout.containerFolder(b.uuid) + "/.container.json.tmp-XYZ"))

        let reopened = try AppContainer(home: home.url)
        #expect(!home.exists(".envscript-containers.removed"))
        #expect(!home.exists(".envscript-containers/trash"))
        #expect(!home.exists(".envscript-containers/.state.json.tmp-XYZ"))
        #expect(!FileManager.default.fileExists(atPath: layout.containerFolder(b.uuid) + "/.container.json.tmp-XYZ"))
        #expect(try reopened.containers.map(\.name) == ["DEFAULT", "B"])
        expectTree(try home.snapshot(), TemporaryHome.tree(["a": "a"]))
    }

    @Test func stateNamingAMissingContainerIsReported() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        try MetadataStore(layout: HomeLayout(home: home.url)).recordActive(UUID())
        #expect {
            try containers.activate(container: b)
        } throws: { error in
            guard (error as? ContainerError)?.code == .corruptMetadata else { return false }
            return "\(error)".contains("which does not exist")
        }
    }
}
