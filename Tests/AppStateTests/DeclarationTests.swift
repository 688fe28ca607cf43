import Foundation
import Testing
@testable import AppState
import TestSupport

@Suite struct DeclarationTests {
    @Test func declaringAKeyAgainGivesTheSameState() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let first = try app.state("count", initial: 1)
        first.value = 5
        let second = try app.state("count", initial: 100)
        #expect(second.value == 5)
        #expect(second.initialValue == 1)
        #expect(app.declaredKeys == ["count"])
    }

    @Test func aKeyKeepsItsKindAndType() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        _ = try app.state("count", initial: 1)
        _ = try app.fileState("doc", initial: "")
        #expect(thrownCase { _ = try app.storedState("count", initial: 1) } == "kindMismatch")
        #expect(thrownCase { _ = try app.state("count", initial: "one") } == "typeMismatch")
        #expect(thrownCase { _ = try app.secureState("doc", initial: "") } == "kindMismatch")
        #expect(thrownCase { _ = try app.state("", initial: 0) } == "invalidKey")
        let error = #expect(throws: AppStateError.self) { _ = try app.storedState("count", initial: 1) }
        #expect(error?.description == "state 'count' is declared as memory state, not stored state; use another key or the declared kind")
    }

    @Test func stateIsReachableByKey() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        _ = try app.state("memory", initial: 1)
        _ = try app.storedState("stored", initial: "s")
        _ = try app.fileState("file", initial: [1, 2])

        #expect(app.kind(ofKey: "stored") == .stored)
        #expect(app.kind(ofKey: "nothing") == nil)
        #expect(try app.value(forKey: "memory", as: Int.self) == 1)
        try app.setValue(2, forKey: "memory")
        try app.setValue("t", forKey: "stored")
        try app.setValue([3], forKey: "file")
        #expect(try app.value(forKey: "memory") as? Int == 2)
        #expect(try app.value(forKey: "stored", as: String.self) == "t")
        #expect(try app.value(forKey: "file", as: [Int].self) == [3])

        #expect(thrownCase { try app.setValue("two", forKey: "memory") } == "typeMismatch")
        #expect(thrownCase { _ = try app.value(forKey: "memory", as: String.self) } == "typeMismatch")
        #expect(thrownCase { _ = try app.value(forKey: "nothing") } == "unknownKey")
        #expect(thrownCase { try app.setValue(1, forKey: "nothing") } == "unknownKey")
    }

    @Test func storedStateUsesItsKeyInThePreferences() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let name = try app.storedState("userName", initial: "")
        try name.setValue("Ada")
        #expect(try app.preferences.string(forKey: "userName") == "Ada")
        // A write through the store is what the state reads.
        try app.preferences.set("Bea", forKey: "userName")
        #expect(try name.read() == "Bea")
        try app.preferences.set(42, forKey: "userName")
        #expect(thrownCase { _ = try name.read() } == "decodingFailed")
    }

    @Test func errorsSayWhatToDo() {
        let cases: [AppStateError] = [
            .unknownKey("k"), .decryptionFailed(key: "k", path: "/p"), .secureKeyMissing(key: "k"),
            .keyFilePermissions(path: "/k", mode: 0o100644), .unknownDependency("d"), .dependencyCycle(["a", "b", "a"]),
        ]
        for error in cases {
            #expect(error.description.contains(";"), "\(error)")
        }
        #expect(AppStateError.keyFilePermissions(path: "/k", mode: 0o100644).description.contains("mode 644"))
    }
}
