import Foundation
import Testing
@testable import AppState
import TestSupport

/// Each kind of state belongs to the container it was set in: set in A, B sees the initial value, and A's
/// value is back after switching back.
@Suite struct IsolationTests {
    struct Profile: Codable, Equatable, Sendable {
        var name: String
        var score: Double
    }

    @Test func memoryStateFollowsNamedContainers() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let counter = try app.state("counter", initial: 0)
        counter.value = 7

        try containers.switchTo("B", app)
        #expect(counter.value == 0)
        counter.value = 3

        try containers.switchTo("A", app)
        #expect(counter.value == 7)
        try containers.switchTo("B", app)
        #expect(counter.value == 3)
    }

    @Test func memoryStateOfAForgottenContainerStartsAfresh() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let counter = try app.state("counter", initial: 0)
        counter.value = 7
        try containers.switchTo("B", app)
        app.forgetMemoryState(ofContainer: containers.identity(of: "A"))
        try containers.switchTo("A", app)
        #expect(counter.value == 0)
    }

    @Test func memoryStateStartsAfreshWhenContainersAreNotNamed() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let counter = try app.state("counter", initial: 0)
        counter.value = 7

        try containers.switchTo("B", app, naming: false)
        #expect(counter.value == 0)
        try containers.switchTo("A", app, naming: false)
        #expect(counter.value == 0)
    }

    @Test func storedStateLivesInTheContainersPreferences() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let profile = try app.storedState("profile", initial: Profile(name: "nobody", score: 0))
        try profile.setValue(Profile(name: "Ada", score: 1.5))

        try containers.switchTo("B", app)
        #expect(try profile.read() == Profile(name: "nobody", score: 0))
        try profile.setValue(Profile(name: "Bea", score: 2))

        try containers.switchTo("A", app)
        #expect(try profile.read() == Profile(name: "Ada", score: 1.5))
        // The value really is in A's preferences file, written by prepareForSwitch.
        let reread = Application(home: containers.home, appID: "com.example.app")
        #expect(try reread.storedState("profile", initial: Profile(name: "", score: 0)).read().name == "Ada")

        try containers.switchTo("B", app)
        #expect(try profile.read().name == "Bea")
    }

    @Test func fileStateLivesInTheContainersFiles() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let notes = try app.fileState("notes", initial: [String]())
        try notes.setValue(["from A"])

        try containers.switchTo("B", app)
        #expect(try notes.read() == [])
        try notes.setValue(["from B"])

        try containers.switchTo("A", app)
        #expect(try notes.read() == ["from A"])
        try containers.switchTo("B", app)
        #expect(try notes.read() == ["from B"])
    }

    @Test func secureStateLivesInTheContainersFilesUnderOneKey() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let token = try app.secureState("token")
        try token.setValue("secret-A")

        try containers.switchTo("B", app)
        #expect(try token.read() == nil)
        try token.setValue("secret-B")

        try containers.switchTo("A", app)
        #expect(try token.read() == "secret-A")
        try containers.switchTo("B", app)
        #expect(try token.read() == "secret-B")
        // The key stayed outside the home through every switch.
        #expect(FileManager.default.fileExists(atPath: containers.keyFile.path))
    }

    @Test func containerScopedDependenciesAreRebuiltAfterASwitch() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let made = Counter()
        app.dependencies.register("session", scope: .container) { "session \(made.next())" }
        app.dependencies.register("clock", scope: .application) { "clock \(made.next())" }

        #expect(try app.dependencies.get("session", as: String.self) == "session 1")
        #expect(try app.dependencies.get("clock", as: String.self) == "clock 2")
        try containers.switchTo("B", app)
        #expect(try app.dependencies.get("session", as: String.self) == "session 3")
        #expect(try app.dependencies.get("clock", as: String.self) == "clock 2")
    }

    @Test func aCorruptPreferencesFileInTheNewContainerFailsInsteadOfServingTheOldValues() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let name = try app.storedState("name", initial: "")
        try name.setValue("Ada")
        let file = app.preferences.fileURL
        let bStash = containers.stash.appendingPathComponent("B/Library/Preferences", isDirectory: true)
        try FileManager.default.createDirectory(at: bStash, withIntermediateDirectories: true)
        try Data("not a plist".utf8).write(to: bStash.appendingPathComponent(file.lastPathComponent))

        #expect(throws: (any Error).self) { try containers.switchTo("B", app) }
        #expect(thrownCase { _ = try name.read() } == "storage")
    }
}
