import Foundation
import Testing
@testable import AppState
import TestSupport

@Suite struct ObservationTests {
    @Test func observersHearEachChangeUntilCancelled() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let counter = try app.state("counter", initial: 0)
        let heard = Recorder<Int>()
        let observation = counter.observe { heard.append($0.newValue) }
        counter.value = 1
        counter.update { $0 += 1 }
        counter.reset()
        observation.cancel()
        counter.value = 9
        #expect(heard.all == [1, 2, 0])
    }

    @Test func droppingTheObservationStopsIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let counter = try app.state("counter", initial: 0)
        let heard = Counter()
        do {
            let observation = counter.observe { _ in heard.next() }
            counter.value = 1
            withExtendedLifetime(observation) {}
        }
        counter.value = 2
        #expect(heard.value == 1)
    }

    @Test func everyKindIsObservable() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let stored = try app.storedState("stored", initial: "")
        let file = try app.fileState("file", initial: "")
        let secure = try app.secureState("secure", initial: "")
        let heard = Recorder<String>()
        let observations = [
            stored.observe { heard.append("stored=\($0.newValue)") },
            file.observe { heard.append("file=\($0.newValue)") },
            secure.observe { heard.append("secure=\($0.newValue)") },
        ]
        try stored.setValue("s")
        try file.setValue("f")
        try secure.setValue("x")
        try stored.reset()
        // A write to the preferences by someone else is heard too.
        try app.preferences.set("outside", forKey: "stored")
        withExtendedLifetime(observations) {}
        #expect(heard.all == ["stored=s", "file=f", "secure=x", "stored=", "stored=outside"])
    }

    @Test func aSwitchAnnouncesTheValuesThatChanged() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let memory = try app.state("memory", initial: 0)
        let stored = try app.storedState("stored", initial: 0)
        let file = try app.fileState("file", initial: 0)
        let untouched = try app.fileState("untouched", initial: 0)
        memory.value = 1
        try stored.setValue(1)
        try file.setValue(1)
        _ = try untouched.read()

        let heard = Recorder<String>()
        let observation = app.observe { change in
            heard.append("\(change.key):\(change.kind):\(change.reason == .reloaded ? "reloaded" : "changed")")
        }
        let typed = Recorder<StateChange<Int>>()
        let fileObservation = file.observe { typed.append($0) }
        try containers.switchTo("B", app)
        withExtendedLifetime((observation, fileObservation)) {}

        #expect(Set(heard.all) == ["stored:stored:reloaded", "file:file:reloaded", "memory:memory:reloaded"])
        #expect(typed.all.map(\.newValue) == [0])
        #expect(typed.all.map(\.reason) == [.reloaded])
    }

    @Test func slicesHearTheirPart() throws {
        struct User: Codable, Sendable {
            var name: String
            var visits: Int
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let visits = try app.storedState("user", initial: User(name: "", visits: 0)).slice(\.visits)
        let heard = Recorder<Int>()
        let observation = visits.observe { heard.append($0.newValue) }
        try visits.update { $0 += 1 }
        try visits.setValue(10)
        withExtendedLifetime(observation) {}
        #expect(heard.all == [1, 10])
    }

    @Test func changesArriveAsAnAsyncSequence() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let counter = try app.state("counter", initial: 0)
        let stream = counter.changes()
        for value in 1...3 { counter.value = value }
        var received: [Int] = []
        for await change in stream {
            received.append(change.newValue)
            if received.count == 3 { break }
        }
        #expect(received == [1, 2, 3])
    }

    @Test func anObserverMayChangeTheStateItObserves() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let counter = try app.state("counter", initial: 0)
        let observation = counter.observe { change in
            if change.newValue < 3 { counter.value = change.newValue + 1 }
        }
        counter.value = 1
        withExtendedLifetime(observation) {}
        #expect(counter.value == 3)
    }
}
