import Foundation
import Testing
@testable import Containers
import Locking

/// Real processes killed with SIGKILL in the middle of switches, with an application writing into the
/// home between the kill and the recovery: the recovery keeps every newcomer, finishes the switch with
/// the incoming container's own entries, and later switches work.
@Suite(.serialized) struct NewcomerCrashTests {
    private func arguments(_ command: String, _ fixture: SwitchFixture, _ rest: [String]) -> [String] {
        [command, fixture.home.path] + rest + SwitchFixture.excludeRules.flatMap { ["--exclude", $0] }
    }

    /// The steps a switch from the active container to `target` passes, recorded on a copy of the home.
    private func steps(of fixture: SwitchFixture, to target: Container) throws -> [SwitchStep] {
        let trial = try withCopiedHome(fixture, label: "steps")
        defer { trial.home.remove() }
        let log = Locked<[SwitchStep]>([])
        let containers = try trial.open()
        containers.observeSwitchSteps { step in log.withLock { $0.append(step) } }
        try containers.activate(container: target)
        return log.withLock { $0 }
    }

    /// Where the stashed entries of `container` go in the live home (relative paths), and whether each
    /// is a folder: the top-level entries of its stash, except that a folder which stays live because it
    /// holds excluded files (`Library`) stands for its entries.
    private func incomingPaths(of container: Container, in fixture: SwitchFixture) throws -> [(path: String, isFolder: Bool)] {
        let stash = HomeLayout(home: fixture.home.url).dataFolder(container.uuid)
        func entries(_ relative: String) throws -> [(path: String, isFolder: Bool)] {
            let folder = relative.isEmpty ? stash : stash + "/" + relative
            return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().flatMap { name in
                let path = relative.isEmpty ? name : relative + "/" + name
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
                let staysLive = SwitchFixture.excludedFiles.keys.contains { $0.hasPrefix(path + "/") }
                return isFolder.boolValue && staysLive ? try entries(path) : [(path, isFolder.boolValue)]
            }
        }
        return try entries("")
    }

    @Test func newcomersMadeBetweenAKillAndTheRecoveryAreKeptAtEveryStep() throws {
        let fixture = try SwitchFixture(filesPerContainer: 700) // 2,100 files in the home
        defer { fixture.home.remove() }
        let layout = HomeLayout(home: fixture.home.url)
        let (from, to) = (fixture.a, fixture.b)
        try fixture.open().activate(container: from)
        let incoming = try incomingPaths(of: to, in: fixture)
        let allSteps = try steps(of: fixture, to: to)
        let first = try #require(allSteps.firstIndex(of: .journalWritten))
        let committed = try #require(allSteps.firstIndex(of: .stateRecorded))
        var keptInAll = 0
        for step in allSteps[first..<committed] {
            try fixture.open().activate(container: from)
            let outcome = try CrashHelperProcess.run(arguments("switch", fixture, [to.uuid.uuidString]), crashAt: step.description)
            #expect(outcome.killed, "the helper should die at \(step): \(outcome.errors)")

            // The application writes where the incoming entries go while their places are free, and
            // into the stash where the next entry moved out goes.
            var newcomers: [String: String] = [:]
            for (path, isFolder) in incoming where !fixture.home.exists(path) {
                newcomers[isFolder ? path + "/newcomer.txt" : path] = "newcomer \(step) \(path)"
            }
            let outgoing = ["top0.txt", "top1.txt", "top2.txt", "top3.txt", "A-only"]
            if let next = outgoing.first(where: { fixture.home.exists($0) && !fixture.home.exists(HomeLayout.dataFolder(from.uuid) + "/" + $0) }) {
                newcomers[HomeLayout.dataFolder(from.uuid) + "/" + next] = "newcomer \(step) in the stash"
            }
            try fixture.home.write(newcomers)

            _ = try fixture.open()
            #expect(try fixture.verify() == to.uuid, "killed at \(step)")
            let kept = try keptNewcomers(in: fixture.home, of: from.uuid)
            expectTree(kept.tree, TemporaryHome.tree(newcomers), "newcomers kept after a kill at \(step)")
            keptInAll += newcomers.count
            try FileSystem.removeTree(layout.containerFolder(from.uuid) + "/conflicts")
        }
        #expect(keptInAll > 20, "the kills left places free for newcomers")

        // Every later switch works.
        for next in [Container.defaultUUID, fixture.a.uuid, fixture.b.uuid, Container.defaultUUID] {
            try fixture.open().activateContainer(uuid: next)
            #expect(try fixture.verify() == next)
        }
    }

    @Test func aKillRightAfterANewcomerWasSetAsideIsRepaired() throws {
        let fixture = try SwitchFixture(filesPerContainer: 100)
        defer { fixture.home.remove() }
        // `B-only` is B's folder and no other container's: its place is free from the start.
        let plant = ["--newcomer-at", "journal-written", "B-only"]
        let killed = try CrashHelperProcess.run(arguments("switch", fixture, [fixture.b.uuid.uuidString] + plant), crashAt: "kept-newcomer")
        #expect(killed.killed, "the helper should die once the newcomer is set aside: \(killed.errors)")
        #expect(killed.output == "kept B-only\n")
        _ = try fixture.open()
        #expect(try fixture.verify() == fixture.b.uuid)
        expectTree(try keptNewcomers(in: fixture.home, of: Container.defaultUUID).tree,
                   ["B-only": .file("newcomer B-only")], "the newcomer")

        // The same in a process that is not killed: it reports the newcomer and completes.
        let back = try CrashHelperProcess.run(arguments("switch", fixture, ["DEFAULT"]))
        #expect(back.exitStatus == 0, "\(back.errors)")
        let plantA = ["--newcomer-at", "journal-written", "A-only"]
        let done = try CrashHelperProcess.run(arguments("switch", fixture, ["A"] + plantA))
        #expect(done.exitStatus == 0 && done.output == "kept A-only\n+\n", "\(done.output) \(done.errors)")
        #expect(try fixture.verify() == fixture.a.uuid)
        let kept = try keptNewcomers(in: fixture.home, of: Container.defaultUUID)
        expectTree(kept.tree, ["B-only": .file("newcomer B-only"), "A-only": .file("newcomer A-only")])
        #expect(kept.folders == 2, "one folder per switch")
    }

    @Test func aRunningInstanceThatFinishesACrashedSwitchReportsTheNewcomer() throws {
        let fixture = try SwitchFixture(filesPerContainer: 100)
        defer { fixture.home.remove() }
        let app = try fixture.open()
        let reported = Locked<[KeptNewcomer]>([])
        app.observeSwitchSteps { step in
            if case .keptNewcomer(let kept) = step { reported.withLock { $0.append(kept) } }
        }
        let outcome = try CrashHelperProcess.run(arguments("switch", fixture, ["B"]), crashAt: "moved-1")
        #expect(outcome.killed, "\(outcome.errors)")
        try fixture.home.write(["B-only": "written by the app"])

        // The app's next operation finishes the switch the helper began: B is active already.
        try app.activate(container: fixture.b)
        #expect(reported.withLock { $0 }.map(\.path) == ["B-only"])
        #expect(reported.withLock { $0 }.first?.container == Container.defaultUUID)
        #expect(try fixture.verify() == fixture.b.uuid)
        expectTree(try keptNewcomers(in: fixture.home, of: Container.defaultUUID).tree,
                   ["B-only": .file("written by the app")])
    }
}
