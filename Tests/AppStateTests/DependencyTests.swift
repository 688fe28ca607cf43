import Foundation
import Testing
@testable import AppState
import TestSupport
import Locking

protocol Greeter: Sendable {
    func greet() -> String
}

struct LiveGreeter: Greeter {
    func greet() -> String { "hello" }
}

struct FakeGreeter: Greeter {
    let word: String
    func greet() -> String { word }
}

struct TestFailure: Error {}

extension DependencyKey where Value == any Greeter {
    static let greeter = DependencyKey("greeter")
}

@Suite struct DependencyTests {
    @Test func factoriesRunLazilyAndOnce() throws {
        let dependencies = DependencyContainer()
        let made = Counter()
        dependencies.register("id") { made.next() }
        #expect(made.value == 0)
        #expect(try dependencies.get("id", as: Int.self) == 1)
        #expect(try dependencies.get("id", as: Int.self) == 1)
        #expect(made.value == 1)
    }

    @Test func concurrentFirstUsesMakeOneInstance() async throws {
        let dependencies = DependencyContainer()
        let made = Counter()
        dependencies.register("slow") { () -> Int in
            Thread.sleep(forTimeInterval: 0.01)
            return made.next()
        }
        let seen = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<64 { group.addTask { try dependencies.get("slow", as: Int.self) } }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(seen == [1])
        #expect(made.value == 1)
    }

    @Test func overridesNestAndAreUndoneInOrder() throws {
        let dependencies = DependencyContainer()
        dependencies.register("greeter", as: (any Greeter).self) { LiveGreeter() }
        let greet = { try dependencies.get("greeter", as: (any Greeter).self).greet() }

        try dependencies.override("greeter", with: FakeGreeter(word: "outer") as any Greeter) {
            #expect(try greet() == "outer")
            try dependencies.override("greeter", with: FakeGreeter(word: "inner") as any Greeter) { () throws in
                #expect(try greet() == "inner")
            }
            #expect(try greet() == "outer")
        }
        #expect(try greet() == "hello")
    }

    @Test func aFailingScopeUndoesItsOverride() throws {
        let dependencies = DependencyContainer()
        dependencies.register("greeter", as: (any Greeter).self) { LiveGreeter() }
        let greet = { try dependencies.get("greeter", as: (any Greeter).self).greet() }

        var innerFailed = false
        #expect(throws: TestFailure.self) {
            try dependencies.override("greeter", with: FakeGreeter(word: "outer") as any Greeter) {
                do {
                    try dependencies.override("greeter", with: FakeGreeter(word: "inner") as any Greeter) {
                        throw TestFailure()
                    }
                } catch is TestFailure {
                    innerFailed = true
                }
                #expect(try greet() == "outer")
                throw TestFailure()
            }
        }
        #expect(innerFailed)
        #expect(try greet() == "hello")
    }

    @Test func asyncOverridesAreUndoneEvenOnError() async throws {
        let dependencies = DependencyContainer()
        dependencies.register(.greeter) { LiveGreeter() }

        let inside = try await dependencies.override(.greeter, with: FakeGreeter(word: "async")) {
            try await Task.sleep(for: .milliseconds(1))
            return try dependencies.get(.greeter).greet()
        }
        #expect(inside == "async")
        await #expect(throws: TestFailure.self) {
            try await dependencies.override(.greeter, with: FakeGreeter(word: "doomed")) {
                try await Task.sleep(for: .milliseconds(1))
                throw TestFailure()
            }
        }
        #expect(try dependencies.get(.greeter).greet() == "hello")
    }

    @Test func overlappingOverridesFromDifferentTasksEachRemoveTheirOwn() async throws {
        let dependencies = DependencyContainer()
        dependencies.register("n") { 0 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for value in 1...32 {
                group.addTask {
                    try await dependencies.override("n", with: value) {
                        try await Task.sleep(for: .milliseconds(Int.random(in: 0...5)))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try dependencies.get("n", as: Int.self) == 0)
    }

    @Test func aClosureOverrideHoldsOnlyOnItsOwnThread() throws {
        let dependencies = DependencyContainer()
        dependencies.register("n") { 0 }
        let entered = DispatchSemaphore(value: 0)
        let checked = DispatchSemaphore(value: 0)
        let seenElsewhere = Locked<Int?>(nil)
        Thread.detachNewThread {
            entered.wait()
            seenElsewhere.withLock { $0 = try? dependencies.get("n", as: Int.self) }
            checked.signal()
        }
        try dependencies.override("n", with: 42) { () throws in
            #expect(try dependencies.get("n", as: Int.self) == 42)
            entered.signal()
            checked.wait() // the other thread reads while the override is in force here
        }
        #expect(seenElsewhere.withLock { $0 } == 0, "another thread saw this thread's override")
    }

    @Test func taskOverridesHoldOnlyInTheirTask() async throws {
        let dependencies = DependencyContainer()
        dependencies.register(.greeter) { LiveGreeter() }

        let words = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for word in ["one", "two", "three"] {
                group.addTask {
                    try await dependencies.withOverrides(["greeter": FakeGreeter(word: word) as any Greeter]) {
                        try await Task.sleep(for: .milliseconds(2))
                        // A child task inherits the override.
                        let child = try await Task { try dependencies.get(.greeter).greet() }.value
                        #expect(child == word)
                        return (word, try dependencies.get(.greeter).greet())
                    }
                }
            }
            return try await group.reduce(into: [(String, String)]()) { $0.append($1) }
        }
        #expect(words.allSatisfy { $0.0 == $0.1 })
        #expect(try dependencies.get(.greeter).greet() == "hello")
    }

    @Test func taskOverridesWinOverClosureOverridesAndNest() throws {
        let dependencies = DependencyContainer()
        dependencies.register("a") { "real a" }
        dependencies.register("b") { "real b" }
        try dependencies.override("a", with: "closure a") {
            try dependencies.withOverrides(["a": "task a"]) {
                #expect(try dependencies.get("a", as: String.self) == "task a")
                try dependencies.withOverrides(["b": "task b"]) { () throws in
                    #expect(try dependencies.get("a", as: String.self) == "task a")
                    #expect(try dependencies.get("b", as: String.self) == "task b")
                }
                #expect(try dependencies.get("b", as: String.self) == "real b")
            }
            #expect(try dependencies.get("a", as: String.self) == "closure a")
        }
    }

    @Test func taskOverridesOfOneContainerDoNotLeakIntoAnother() throws {
        let first = DependencyContainer()
        let second = DependencyContainer()
        first.register("x") { 1 }
        second.register("x") { 2 }
        try first.withOverrides(["x": 10]) { () throws in
            #expect(try first.get("x", as: Int.self) == 10)
            #expect(try second.get("x", as: Int.self) == 2)
        }
    }

    @Test func overridesAreCheckedBeforeTheyApply() throws {
        let dependencies = DependencyContainer()
        dependencies.register("count") { 1 }
        var ran = false
        #expect(thrownCase { try dependencies.override("count", with: "one") { ran = true } } == "typeMismatch")
        #expect(thrownCase { try dependencies.override("missing", with: 1) { ran = true } } == "unknownDependency")
        #expect(thrownCase { try dependencies.withOverrides(["count": 1.5]) { ran = true } } == "typeMismatch")
        #expect(!ran)
    }

    @Test func errorsNameTheDependency() throws {
        let dependencies = DependencyContainer()
        dependencies.register("broken") { () throws -> Int in throw TestFailure() }
        dependencies.register("number") { 1 }
        #expect(thrownCase { _ = try dependencies.get("missing") } == "unknownDependency")
        #expect(thrownCase { _ = try dependencies.get("number", as: String.self) } == "typeMismatch")
        let error = #expect(throws: AppStateError.self) { _ = try dependencies.get("broken") }
        #expect(error?.codeName == "factoryFailed")
        #expect(error?.description.contains("'broken'") == true)
        // A failed factory keeps nothing: the next get tries again.
        dependencies.register("broken") { 2 }
        #expect(try dependencies.get("broken", as: Int.self) == 2)
    }

    @Test func aCycleIsReportedInsteadOfDeadlocking() throws {
        let dependencies = DependencyContainer()
        dependencies.register("a") { try dependencies.get("b", as: Int.self) + 1 }
        dependencies.register("b") { try dependencies.get("a", as: Int.self) + 1 }
        let error = #expect(throws: AppStateError.self) { _ = try dependencies.get("a") }
        guard case .dependencyCycle(let names) = error?.reason else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(names == ["a", "b", "a"])
    }

    @Test func factoriesMayUseOtherDependencies() throws {
        let dependencies = DependencyContainer()
        dependencies.register("base") { 20 }
        dependencies.register("derived") { try dependencies.get("base", as: Int.self) + 1 }
        #expect(try dependencies.get("derived", as: Int.self) == 21)
    }

    @Test func reRegisteringReplacesTheInstanceAndUnregisteringRemovesIt() throws {
        let dependencies = DependencyContainer()
        dependencies.register("v") { "first" }
        #expect(try dependencies.get("v", as: String.self) == "first")
        dependencies.register("v", scope: .container) { "second" }
        #expect(try dependencies.get("v", as: String.self) == "second")
        #expect(dependencies.scope(of: "v") == .container)
        #expect(dependencies.registeredNames == ["v"])
        dependencies.unregister("v")
        #expect(!dependencies.isRegistered("v"))
        #expect(thrownCase { _ = try dependencies.get("v") } == "unknownDependency")
    }

    @Test func containerDidSwitchDropsOnlyContainerScopedInstances() throws {
        let dependencies = DependencyContainer()
        let made = Counter()
        dependencies.register("perContainer", scope: .container) { made.next() }
        dependencies.register("shared") { made.next() }
        let perContainer = try dependencies.get("perContainer", as: Int.self)
        let shared = try dependencies.get("shared", as: Int.self)
        dependencies.containerDidSwitch()
        #expect(try dependencies.get("perContainer", as: Int.self) != perContainer)
        #expect(try dependencies.get("shared", as: Int.self) == shared)
    }
}
