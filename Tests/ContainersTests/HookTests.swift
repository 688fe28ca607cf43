import Foundation
import Testing
@testable import Containers
import Locking

/// A thread-safe list of what happened, in order.
final class EventLog: Sendable {
    private let storage = Locked<[String]>([])
    func append(_ event: String) { storage.withLock { $0.append(event) } }
    var events: [String] { storage.withLock { $0 } }
}

/// A delegate that logs its calls and may refuse switches.
final class LoggingDelegate: AppContainerDelegate, @unchecked Sendable {
    let label: String
    let log: EventLog
    var refusal: (any Error)?

    init(_ label: String, log: EventLog) {
        self.label = label
        self.log = log
    }

    func containerWillChange(to: Container, from: Container?) throws {
        log.append("\(label) will \(from?.name ?? "-")->\(to.name)")
        if let refusal { throw refusal }
    }

    func containerDidChange(to: Container, from: Container?) {
        log.append("\(label) did \(from?.name ?? "-")->\(to.name)")
    }
}

struct Refusal: Error, CustomStringConvertible {
    var description: String { "refused by the test" }
}

@Suite struct HookTests {
    @Test func delegatesAndHooksRunInRegistrationOrderAroundParticipants() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let log = EventLog()
        let first = LoggingDelegate("d1", log: log)
        let second = LoggingDelegate("d2", log: log)
        containers.add(delegate: first)
        containers.addWillChangeHook { to, from in log.append("h1 will \(from?.name ?? "-")->\(to.name)") }
        containers.addDidChangeHook { to, from in log.append("h2 did \(from?.name ?? "-")->\(to.name)") }
        containers.add(delegate: second)
        containers.add(delegate: first) // already there: no second call
        containers.addWillChangeHook { _, _ in log.append("h3 will") }
        let participant = RecordingParticipant(onFlush: { log.append("flush") }, onReload: { log.append("reload") })
        containers.add(participant: participant)

        try containers.activate(container: b)
        #expect(log.events == [
            "d1 will DEFAULT->B", "h1 will DEFAULT->B", "d2 will DEFAULT->B", "h3 will", "flush",
            "reload", "d1 did DEFAULT->B", "h2 did DEFAULT->B", "d2 did DEFAULT->B",
        ])
    }

    @Test func theDidChangeContainerCarriesTheNewActivationCount() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let seen = Locked<Container?>(nil)
        containers.addDidChangeHook { to, _ in seen.withLock { $0 = to } }
        try containers.activate(container: b)
        let announced = try #require(seen.withLock { $0 })
        #expect(announced.activatedCount == 1)
        #expect(try containers.activeContainer == announced)
    }

    @Test func aThrowingWillChangeHookCancelsWithNothingChangedOnDisk() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["a.txt": "a", "Library/x": "x"])
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let before = try TemporaryHome.snapshot(of: home.path)
        let log = EventLog()
        containers.addWillChangeHook { _, _ in log.append("first") }
        let refusing = containers.addWillChangeHook { _, _ in throw Refusal() }
        containers.addWillChangeHook { _, _ in log.append("after the refusal") }
        containers.addDidChangeHook { _, _ in log.append("did") }
        let participant = RecordingParticipant(onFlush: { log.append("flush") })
        containers.add(participant: participant)

        #expect {
            try containers.activate(container: b)
        } throws: { error in
            guard case .switchCancelled(let underlying)? = (error as? ContainerError)?.reason else { return false }
            return underlying is Refusal && "\(error)".contains("refused by the test") && "\(error)".contains("nothing on disk changed")
        }
        #expect(log.events == ["first"])
        expectTree(try TemporaryHome.snapshot(of: home.path), before, "the whole home, bookkeeping included")
        #expect(try containers.activeContainer.isDefault)

        #expect(containers.removeHook(refusing))
        #expect(!containers.removeHook(refusing))
        try containers.activate(container: b)
        #expect(log.events == ["first", "first", "after the refusal", "flush", "did"])
    }

    @Test func aRefusingDelegateOrParticipantCancelsToo() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["a.txt": "a"])
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let log = EventLog()
        let delegate = LoggingDelegate("d", log: log)
        delegate.refusal = Refusal()
        containers.add(delegate: delegate)
        #expect(throws: ContainerError.self) { try containers.activate(container: b) }
        containers.remove(delegate: delegate)

        let participant = RecordingParticipant(onFlush: { throw Refusal() })
        containers.add(participant: participant)
        #expect(throws: ContainerError.self) { try containers.activate(container: b) }
        #expect(try home.read("a.txt") == "a")
        containers.remove(participant: participant)
        try containers.activate(container: b)
        #expect(try home.read("a.txt") == nil)
        #expect(log.events == ["d will DEFAULT->B"])
    }

    @Test func delegatesAndParticipantsAreHeldWeakly() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let log = EventLog()
        do {
            let delegate = LoggingDelegate("gone", log: log)
            containers.add(delegate: delegate)
            containers.add(participant: RecordingParticipant(onFlush: { log.append("flush") }))
        }
        try containers.activate(container: b)
        #expect(log.events.isEmpty)
    }

    @Test func participantsSeeTheOldFilesWhenFlushingAndTheNewOnesWhenReloading() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["state.txt": "default"])
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        try containers.activate(container: b)
        try home.write(["state.txt": "b"])
        let log = EventLog()
        let participant = RecordingParticipant(
            onFlush: { log.append("flush saw \((try? home.read("state.txt")) ?? "nil")") },
            onReload: { log.append("reload saw \((try? home.read("state.txt")) ?? "nil")") })
        containers.add(participant: participant)
        try containers.activate(container: containers.resolve("DEFAULT"))
        #expect(log.events == ["flush saw b", "reload saw default"])
    }

    @Test func notificationsArePostedWithTheContainers() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let log = EventLog()
        let center = NotificationCenter.default
        let observers = [AppContainer.containerWillChangeNotification, AppContainer.containerDidChangeNotification].map { name in
            center.addObserver(forName: name, object: containers, queue: nil) { notification in
                let to = notification.userInfo?[AppContainer.toContainerUserInfoKey] as? Container
                let from = notification.userInfo?[AppContainer.fromContainerUserInfoKey] as? Container
                log.append("\(notification.name == AppContainer.containerWillChangeNotification ? "will" : "did") \(from?.name ?? "-")->\(to?.name ?? "-")")
            }
        }
        defer { observers.forEach(center.removeObserver) }
        try containers.activate(container: b)
        #expect(log.events == ["will DEFAULT->B", "did DEFAULT->B"])
    }

    @Test func changingContainersFromAWillChangeHookIsRefusedAndSwitchingFromADidChangeHookToo() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let c = try containers.createNewContainer(name: "C")
        let token = containers.addWillChangeHook { _, _ in
            try containers.createNewContainer(name: "inside")
        }
        #expect {
            try containers.activate(container: b)
        } throws: { error in
            guard case .switchCancelled(let underlying)? = (error as? ContainerError)?.reason,
                  (underlying as? ContainerError)?.code == .reentrantOperation else { return false }
            return "\(error)".contains("while a switch of the same home is under way")
        }
        containers.removeHook(token)

        // A did-change hook may change the home (the lock is free by then), but not start another
        // switch: that would chain switches (one back to where it came from ping-pongs without end).
        let outcomes = Locked<[String]>([])
        containers.addDidChangeHook { to, _ in
            guard to.uuid == b.uuid else { return }
            do {
                try containers.createNewContainer(name: "made in the hook")
                try containers.activate(container: c)
                outcomes.withLock { $0.append("switched") }
            } catch let error as ContainerError {
                if case .switchWhileAnnouncing(let target, let announced) = error.reason {
                    outcomes.withLock { $0.append("refused \(target) during \(announced)") }
                }
            } catch {
                Issue.record(error)
            }
        }
        try containers.activate(container: b)
        #expect(outcomes.withLock { $0 } == ["refused C during B"])
        #expect(try containers.activeContainer.uuid == b.uuid)
        #expect(try containers.container(named: "made in the hook") != nil)
        // Outside the hook the next switch is fine.
        try containers.activate(container: c)
        #expect(try containers.activeContainer.uuid == c.uuid)
    }

    @Test func stepsArePassedInOrder() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["one": "1", "two": "2"])
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        let log = EventLog()
        containers.observeSwitchSteps { log.append($0.description) }
        try containers.activate(container: b)
        #expect(log.events == [
            "locked", "will-change-done", "participants-flushed", "state-staged", "journal-staged", "journal-written",
            "moved-1", "moved-2", "moves-synced", "state-recorded", "journal-removed",
            "participants-reloaded", "did-change-done",
        ])
    }
}
