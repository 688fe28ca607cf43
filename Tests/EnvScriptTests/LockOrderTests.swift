import Containers
import EnvScript
import Foundation
import TestSupport
import Testing

/// One lock order for every change of a host's containers (issue "The runtime under threads", item 1):
/// a Swift thread switching through `host.containers` while a script switches through
/// `container.activate`, with a Lua will-change hook registered, never deadlocks.
@Suite struct LockOrderTests {
    @Test func swiftAndLuaSwitchingOnTwoThreadsMakeProgress() throws {
        let fixture = try HostFixture(attaches: false)
        try fixture.run("""
            container.create('A') container.create('B')
            hooks_run = 0
            container.on_will_change(function() hooks_run = hooks_run + 1 end)
            """)
        // The host is used from two threads, as an app does; it serialises Lua through its lock.
        let shared = UncheckedHost(fixture.host)
        let host = fixture.host
        let a = try host.containers.resolve("A")
        let b = try host.containers.resolve("B")
        let rounds = 200
        let done = DispatchGroup()
        let failures = Recorder<String>()

        done.enter()
        Thread.detachNewThread {
            defer { done.leave() }
            do {
                for index in 0..<rounds { try shared.host.containers.activate(container: index.isMultiple(of: 2) ? a : b) }
            } catch { failures.append("Swift thread: \(error)") }
        }
        done.enter()
        Thread.detachNewThread {
            defer { done.leave() }
            do {
                for index in 0..<rounds {
                    try shared.host.execute("container.activate('\(index.isMultiple(of: 2) ? "B" : "A")')")
                }
            } catch { failures.append("Lua thread: \(error)") }
        }
        // A deadlock fails this test (the stuck threads are left behind), not the whole suite.
        let finished = done.wait(timeout: .now() + 120) == .success
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

/// A host handed to other threads in a test.
struct UncheckedHost: @unchecked Sendable {
    let host: EnvScriptHost
    init(_ host: EnvScriptHost) { self.host = host }
}
