import Containers
import EnvScript
import Foundation
import TestSupport
import Testing

/// One lock order for every change of a host's containers (issue "The runtime under threads", item 1):
/// a Swift thread switching through `host.containers` while a script switches through
/// `container.activate`, with a Lua will-change hook registered, never deadlocks.
@Suite(.timeLimit(.minutes(10))) struct LockOrderTests {
    @Test func swiftAndLuaSwitchingOnTwoThreadsMakeProgress() async throws {
        let fixture = try HostFixture(attaches: false)
        try fixture.run("""
            container.create('A') container.create('B')
            hooks_run = 0
            container.on_will_change(function() hooks_run = hooks_run + 1 end)
            """)
        // The host is used from two threads, as an app does; it serialises Lua through its lock.
        let host = fixture.host
        let a = try host.containers.resolve("A")
        let b = try host.containers.resolve("B")
        let rounds = 200
        let failures = Recorder<String>()
        // A deadlock fails this test (the stuck threads are left behind), not the whole suite.
        let finished = await ThreadGroup.run([
            {
                do {
                    for index in 0..<rounds { try host.containers.activate(container: index.isMultiple(of: 2) ? a : b) }
                } catch { failures.append("Swift thread: \(error)") }
            },
            {
                do {
                    for index in 0..<rounds {
                        try host.execute("container.activate('\(index.isMultiple(of: 2) ? "B" : "A")')")
                    }
                } catch { failures.append("Lua thread: \(error)") }
            },
        ], timeout: .seconds(120))
        #expect(finished, "the two threads made no progress for 120 s: deadlock")
        guard finished else {
            // Closing a deadlocked host would wait forever: leave it behind so the suite goes on.
            _ = Unmanaged.passRetained(fixture)
            return
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let hooksRun = try fixture.run("return hooks_run").first?.intValue ?? 0
        #expect(hooksRun > 0 && hooksRun <= 2 * rounds)
    }
}

/// The same order across processes: a host whose thread waits for the home's lock does not hold its
/// own lock meanwhile, so the process holding the home's lock can have this host take part (run its
/// Lua hooks) in its change instead of waiting for it until the timeout.
@Suite(.timeLimit(.minutes(10))) struct CrossProcessLockOrderTests {
    @Test func aHostWaitingToSwitchStillTakesPartInTheChangeThatHoldsTheHome() async throws {
        let attached = try HostFixture(attaches: true)
        try attached.run("""
            container.create('A') container.create('B')
            prepared = 0
            container.on_will_change(function() prepared = prepared + 1 end)
            """)
        // The asker: another host of the same home (flock locks conflict between two opens in one
        // process as between processes), whose own will-change hook holds the home until released.
        let asker = try EnvScriptHost(configuration: HostConfiguration(
            home: attached.folder.appendingPathComponent("home"), appID: "tests", attachesToHome: false,
            participationTimeout: .seconds(5)))
        defer { asker.close() }
        let holdsTheHome = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        asker.containers.addWillChangeHook { _, _ in
            holdsTheHome.signal() // once for this test, once for the attached host's thread
            holdsTheHome.signal()
            _ = release.wait(timeout: .now() + 300) // outlasts the wait below for that thread
        }
        let a = try asker.containers.resolve("A")
        let b = try attached.host.containers.resolve("B")
        let host = attached.host
        let outcomes = Recorder<String>()

        async let finished = ThreadGroup.run([
            {
                do {
                    let report = try asker.containers.activate(container: a)
                    outcomes.append("asker: took part \(report.participants.count)")
                } catch { outcomes.append("asker: \(error)") }
            },
            {
                // Starts once the asker holds the home: waits for it, as an app's background switch would.
                holdsTheHome.wait()
                do {
                    try host.containers.activate(container: b)
                    outcomes.append("attached: switched")
                } catch { outcomes.append("attached: \(error)") }
            },
        ], timeout: .seconds(120))
        // Waited for on a thread of its own: blocking the test's task would hold a thread of the pool
        // that the thread group's own task may need to start.
        try await onAnotherThread { holdsTheHome.wait() }
        // That thread has reached the home's lock: it is blocked in flock(2) on the lock file, as
        // /proc/locks shows, and stays so while the asker's hook holds the home.
        let homeLock = attached.folder.appendingPathComponent("home/.envscript-containers/lock").path
        try await waitUntil("the attached host's thread waits for the home's lock", timeout: .seconds(120)) {
            ProcessInspection.someoneWaitsForFileLock(onFileAt: homeLock)
        }
        release.signal()
        #expect(await finished)
        let results = outcomes.all
        #expect(results.contains("asker: took part 1"), "\(results)")
        #expect(results.contains("attached: switched"), "\(results)")
        #expect(try attached.run("return prepared").first == 2)
        #expect(try attached.host.containers.activeContainer.name == "B")
    }
}
