import Foundation
import Testing
@testable import AppState
import TestSupport

/// Many tasks at once: no update is lost, and every reader sees a whole value.
@Suite struct ConcurrencyTests {
    struct Tally: Codable, Sendable, Equatable {
        var left = 0
        var right = 0
    }

    @Test func memoryUpdatesFromManyTasksAreNotLost() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let counter = try app.state("counter", initial: 0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask { for _ in 0..<200 { counter.update { $0 += 1 } } }
            }
        }
        #expect(counter.value == 10_000)
    }

    @Test func storedUpdatesFromManyTasksAreNotLost() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let tally = try app.storedState("tally", initial: Tally())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                // Half the tasks write one slice, half the other, and readers run alongside.
                let side = index.isMultiple(of: 2) ? tally.slice(\.left) : tally.slice(\.right)
                group.addTask { for _ in 0..<50 { try side.update { $0 += 1 } } }
                group.addTask { for _ in 0..<50 { _ = try tally.read() } }
            }
            try await group.waitForAll()
        }
        #expect(try tally.read() == Tally(left: 500, right: 500))
        try app.prepareForSwitch()
        #expect(try Application(home: folder.url, appID: "app").storedState("tally", initial: Tally()).read().left == 500)
    }

    @Test func fileUpdatesFromManyTasksAreNotLost() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let counter = try app.fileState("counter", initial: 0)
        let secret = try Application(home: folder.url, appID: "app", secureKey: .keyBytes(Data(count: 32)))
            .secureState("secret", initial: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<5 { try counter.update { $0 += 1 } } }
                group.addTask { for _ in 0..<5 { try secret.update { $0 += 1 } } }
            }
            try await group.waitForAll()
        }
        #expect(try counter.read() == 40)
        #expect(try secret.read() == 40)
        #expect(try Application(home: folder.url, appID: "app").fileState("counter", initial: 0).read() == 40)
    }

    @Test func declaringAndReadingFromManyTasksAgrees() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    let shared = try app.state("shared", initial: 0)
                    shared.update { $0 += 1 }
                    let own = try app.state("own-\(index)", initial: index)
                    #expect(own.value == index)
                }
            }
            try await group.waitForAll()
        }
        #expect(try app.value(forKey: "shared", as: Int.self) == 100)
        #expect(app.declaredKeys.count == 101)
    }

    @Test func switchingWhileTasksReadDependenciesGivesWholeInstances() async throws {
        let dependencies = DependencyContainer()
        let made = Counter()
        dependencies.register("session", scope: .container) { "session-\(made.next())" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    for _ in 0..<100 {
                        let session = try dependencies.get("session", as: String.self)
                        #expect(session.hasPrefix("session-"))
                    }
                }
            }
            group.addTask { for _ in 0..<20 { dependencies.containerDidSwitch() } }
            try await group.waitForAll()
        }
        #expect(made.value >= 1)
    }
}
