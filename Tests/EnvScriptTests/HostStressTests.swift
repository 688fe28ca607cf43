import Containers
import EnvScript
import Foundation
import LuaBridge
import TestSupport
import Testing
import Tweaks
import Locking

/// One host used from eight threads at once for ten seconds, as an app uses it: flag reads from Swift
/// and Lua, switches from Swift and Lua, state written from both, overrides set, observers and Lua
/// references made on one thread and dropped on another, while a remote provider refreshes from a
/// real server (issue "The runtime under threads").
///
/// It must end without deadlock or crash, and what the threads did must add up afterwards: every flag
/// read gave a value the stack could give, every counted increment of state is in some container,
/// every switch ran its did-change hook exactly once, and every dropped reference was released.
@Suite(.timeLimit(.minutes(10))) struct HostStressTests {
    static let duration: Duration = .seconds(10)
    static let colors: Set<String> = ["blue", "red", "green"]

    @Test func eightThreadsShareOneHostForTenSeconds() async throws {
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        try fixture.write("tweaks.json", #"{"checkout": {"color": {"Value": "blue"}}}"#)
        // A remote provider refreshing every 20 ms from a real server whose answer keeps changing.
        let server = try await RemoteTweakServer.start(.init(body: Self.remoteDocument(0), etag: "\"0\""))
        try fixture.run("""
            container.create('A') container.create('B')
            tweak.stack{
              tweak.overrides(),
              tweak.remote{url = '\(server.url)', refresh = 0.02, timeout = 5},
              tweak.provider{name = 'lua', get = function(feature, variable)
                if feature == 'dynamic' then return 'from-lua' end
              end},
              tweak.json('\(fixture.folder.path)/tweaks.json', 'shipped'),
            }
            state.stored('lua_hits', 0)
            did_changes = 0
            container.on_will_change(function(to, from) will_seen = to.name end)
            container.on_did_change(function(to, from) did_changes = did_changes + 1 end)
            """)
        let host = fixture.host
        let swiftHits = try host.application.storedState("swift_hits", initial: 0)
        let names = ["A", "B", "DEFAULT"]
        let containers = try names.map { try host.containers.resolve($0) }
        let activationsBefore = try activationCounts(host)
        let referencesBefore = try liveReferences(host)

        let failures = Recorder<String>()
        let luaIncrements = Counter()
        let swiftIncrements = Counter()
        let reads = Counter()
        let dropBox = DropBox()
        let deadline = ContinuousClock.now + Self.duration

        /// One worker: runs `step` until the deadline, recording the first few errors.
        func worker(_ name: String, _ step: @escaping @Sendable (Int) throws -> Void) -> @Sendable () -> Void {
            {
                var round = 0
                while ContinuousClock.now < deadline {
                    do { try step(round) } catch { failures.append("\(name), round \(round): \(error)") }
                    round += 1
                }
            }
        }
        let workers: [@Sendable () -> Void] = [
            worker("Swift flag reads") { round in
                let color = host.tweaks.value("checkout", "color", default: "none")
                let dynamic = host.tweaks.value("dynamic", "anything", default: "none")
                let version = host.tweaks.value("remote", "version", default: -1)
                guard Self.colors.contains(color), dynamic == "from-lua", version >= -1 else {
                    throw StressFailure("read color \(color), dynamic \(dynamic), remote version \(version)")
                }
                if round.isMultiple(of: 50) {
                    server.answer { $0 = .init(body: Self.remoteDocument(round), etag: "\"\(round)\"") }
                }
                reads.next()
                _ = dropBox.take()
            },
            worker("Lua flag reads") { _ in
                let values = try host.execute("return tweak.value('checkout', 'color', 'none'), tweak.value('dynamic', 'x', 'none')")
                guard let color = values.first?.stringValue, Self.colors.contains(color), values.last == "from-lua" else {
                    throw StressFailure("read \(values)")
                }
                reads.next()
            },
            worker("Swift switches") { round in
                try host.containers.activate(container: containers[round % 3])
            },
            worker("Lua switches") { round in
                try host.execute("container.activate('\(names[(round + 1) % 3])')")
            },
            worker("Swift state") { _ in
                try swiftHits.update { $0 += 1 }
                swiftIncrements.next()
                _ = dropBox.take()
            },
            worker("Lua state") { _ in
                try host.execute("state.set('lua_hits', state.get('lua_hits') + 1)")
                luaIncrements.next()
            },
            worker("overrides") { round in
                let color = round.isMultiple(of: 2) ? "red" : "green"
                if round.isMultiple(of: 3) {
                    try host.execute("tweak.set('checkout', 'color', '\(color)')")
                } else {
                    try host.tweaks.set(.string(color), feature: "checkout", variable: "color")
                }
            },
            worker("handles") { round in
                // Made here, dropped on whichever thread takes them: references to Lua values, an observer.
                let made = try host.execute("return function() return \(round) end, {nested = function() end}")
                let observation = host.tweaks.observe { _ in }
                if let earlier = dropBox.put(Droppable(values: made, observation: observation)),
                   case .function(let function)? = earlier.values.first {
                    _ = try host.lock.withLock { try function.call() }
                }
            },
        ]
        let finished = await ThreadGroup.run(workers, timeout: Self.duration + .seconds(110))
        let refreshes = server.answered
        await server.stop()
        #expect(finished, "the threads made no progress for two minutes: deadlock")
        guard finished else {
            // Closing a deadlocked host would wait forever: leave it behind so the suite goes on.
            _ = Unmanaged.passRetained(fixture)
            return
        }
        let recorded = failures.all
        #expect(recorded.isEmpty, "\(recorded.count) failures, first: \(recorded.prefix(5))")
        #expect(reads.value > 100)
        #expect(refreshes > 10, "the remote provider refreshed \(refreshes) times")

        // Every switch ran its did-change hook once, and counted one activation.
        let activationsAfter = try activationCounts(host)
        let activations = zip(activationsAfter, activationsBefore).map { $0 - $1 }.reduce(0, +)
        let didChanges = try fixture.run("return did_changes").first?.intValue ?? -1
        #expect(activations > 10)
        #expect(didChanges == activations, "\(didChanges) did-change hooks for \(activations) activations")

        // Every increment is in one container or another: nothing lost, nothing counted twice.
        var luaTotal = 0
        var swiftTotal = 0
        for container in containers {
            try host.containers.activate(container: container)
            luaTotal += try fixture.run("return state.get('lua_hits')").first?.intValue ?? -1
            swiftTotal += try swiftHits.value
        }
        #expect(luaTotal == luaIncrements.value)
        #expect(swiftTotal == swiftIncrements.value)

        // References dropped on any thread were all released.
        _ = dropBox.take()
        #expect(try liveReferences(host) == referencesBefore)
    }

    static func remoteDocument(_ version: Int) -> String {
        #"{"remote": {"version": {"Value": \#(version)}}}"#
    }

    private func activationCounts(_ host: EnvScriptHost) throws -> [Int] {
        try ["A", "B", "DEFAULT"].map { try host.containers.resolve($0).activatedCount }
    }

    /// Registry references held by Swift once Lua has collected its garbage and drained what was let go.
    private func liveReferences(_ host: EnvScriptHost) throws -> Int {
        try host.lock.withLock {
            try host.lua.execute("collectgarbage()")
            return host.lua.liveReferenceCount
        }
    }
}

/// What the "handles" worker hands from one round to the next.
private struct Droppable: @unchecked Sendable {
    let values: [LuaValue]
    let observation: TweakObservation
}

/// A slot that keeps what one thread made until another takes it, so that values are mostly dropped
/// on another thread than the one that made them.
private final class DropBox: Sendable {
    private let held = Locked<Droppable?>(nil)

    /// Puts `value` in and returns what was there.
    func put(_ value: Droppable) -> Droppable? {
        held.withLock { held in
            defer { held = value }
            return held
        }
    }

    /// Takes what is there.
    func take() -> Droppable? {
        held.withLock { held in
            defer { held = nil }
            return held
        }
    }
}

private struct StressFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
