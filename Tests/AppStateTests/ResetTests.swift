import Foundation
import Testing
@testable import AppState
import TestSupport

@Suite struct ResetTests {
    @Test func eachKindResetsToItsInitialValue() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let memory = try app.state("memory", initial: 1)
        let stored = try app.storedState("stored", initial: "initial")
        let file = try app.fileState("file", initial: [0])
        let secure = try app.secureState("secure", initial: "initial")
        memory.value = 2
        try stored.setValue("changed")
        try file.setValue([1, 2])
        try secure.setValue("changed")

        memory.reset()
        try stored.reset()
        try app.reset(key: "file")
        try app.reset(key: "secure")

        #expect(memory.value == 1)
        #expect(try stored.read() == "initial")
        #expect(try app.preferences.value(forKey: "stored") == nil)
        #expect(try file.read() == [0])
        #expect(!FileManager.default.fileExists(atPath: file.fileURL.path))
        #expect(try secure.read() == "initial")
        #expect(!FileManager.default.fileExists(atPath: secure.fileURL.path))
        #expect(thrownCase { try app.reset(key: "nothing") } == "unknownKey")
    }

    @Test func resetAllResetsEveryDeclaredState() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let memory = try app.state("memory", initial: 1)
        let stored = try app.storedState("stored", initial: 1)
        let file = try app.fileState("file", initial: 1)
        let secure = try app.secureState("secure", initial: 1)
        memory.value = 2
        try stored.setValue(2)
        try file.setValue(2)
        try secure.setValue(2)

        try app.resetAll()

        #expect(memory.value == 1)
        #expect(try stored.read() == 1)
        #expect(try file.read() == 1)
        #expect(try secure.read() == 1)
        // Reset values survive a fresh start.
        try app.prepareForSwitch()
        let fresh = containers.makeApplication()
        #expect(try fresh.storedState("stored", initial: 0).read() == 0)
        #expect(try fresh.fileState("file", initial: 0).read() == 0)
    }

    @Test func resetAllTriesEveryStateBeforeReportingAFailure() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let stored = try app.storedState("stored", initial: 0)
        let memory = try app.state("memory", initial: 0)
        memory.value = 1
        // A corrupt preferences file makes the stored state fail to reset.
        try FileManager.default.createDirectory(
            at: app.preferences.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a property list".utf8).write(to: app.preferences.fileURL)

        #expect(thrownCase { try app.resetAll() } == "storage")
        #expect(memory.value == 0)
        #expect(thrownCase { _ = try stored.read() } == "storage")
    }
}
