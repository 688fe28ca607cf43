import Foundation
import Testing
@testable import Containers
import Locking

/// Real processes killed with SIGKILL in the middle of switches; after each kill, opening the home must
/// repair it so that every container holds exactly its files.
@Suite(.serialized) struct CrashTests {
    private func arguments(_ command: String, _ fixture: SwitchFixture, _ rest: String...) -> [String] {
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

    @Test func aKillAtEveryStepOfASwitchIsRepaired() throws {
        let fixture = try SwitchFixture(filesPerContainer: 100)
        defer { fixture.home.remove() }
        for (from, to) in [(Container.defaultUUID, fixture.a), (fixture.a.uuid, fixture.b)] {
            try fixture.open().activateContainer(uuid: from)
            let steps = try steps(of: fixture, to: to)
            let committed = try #require(steps.firstIndex(of: .journalWritten))
            #expect(steps.count > 12)
            for (index, step) in steps.enumerated() {
                try fixture.open().activateContainer(uuid: from)
                let outcome = try CrashHelperProcess.run(arguments("switch", fixture, to.uuid.uuidString), crashAt: step.description)
                #expect(outcome.killed, "the helper should die at \(step): \(outcome.errors)")
                _ = try fixture.open()
                let expected = index >= committed ? to.uuid : from
                #expect(try fixture.verify() == expected, "killed at \(step)")
            }
        }
    }

    @Test func killsAtRandomMomentsOverManySwitchesOfAThousandsOfFilesHome() throws {
        let fixture = try SwitchFixture(filesPerContainer: 1_000)
        defer { fixture.home.remove() }
        var generator = SystemRandomNumberGenerator()
        var switches = 0
        var kills = 0
        var runs = 0
        while switches < 200 || kills < 30 {
            runs += 1
            try #require(runs < 500, "too few switches per run: \(switches) in \(runs) runs")
            let helper = try CrashHelperProcess(
                arguments("cycle", fixture, "100000", String(UInt64.random(in: 0...UInt64.max, using: &generator))))
            if Int.random(in: 0..<4, using: &generator) == 0 {
                // During start-up: opening the home, often in the middle of repairing the previous kill.
                usleep(UInt32.random(in: 0...30_000, using: &generator))
            } else {
                // After a few whole switches, at a random moment of the next one (a switch takes
                // about 10 ms here). Counting lines rather than time keeps the test's length
                // independent of the machine's load.
                #expect(helper.readLine() == "R")
                for _ in 0..<Int.random(in: 0...6, using: &generator) {
                    if helper.readLine() == "+" { switches += 1 }
                }
                usleep(UInt32.random(in: 0...12_000, using: &generator))
            }
            helper.kill()
            let outcome = helper.finish()
            if outcome.killed { kills += 1 } else { Issue.record("helper ended on its own: \(outcome.errors)") }
            switches += outcome.switches
            _ = try fixture.open()
            try fixture.verify()
        }
        #expect(switches >= 200)
    }

    @Test func fourProcessesSwitchingOneHomeLoseNothing() throws {
        let fixture = try SwitchFixture(filesPerContainer: 300)
        defer { fixture.home.remove() }
        let before = try fixture.open().containers.reduce(0) { $0 + $1.activatedCount }
        let helpers = try (1...4).map { seed in
            try CrashHelperProcess(arguments("cycle", fixture, "25", String(seed * 7919)))
        }
        let outcomes = helpers.map { $0.finish() }
        for outcome in outcomes {
            #expect(outcome.exitStatus == 0 && !outcome.killed, "helper failed: \(outcome.errors)")
        }
        try fixture.verify()
        let made = outcomes.reduce(0) { $0 + $1.switches }
        let after = try fixture.open().containers.reduce(0) { $0 + $1.activatedCount }
        #expect(made > 0)
        #expect(after - before == made, "every switch was counted once: no two processes switched at once")
    }
}
