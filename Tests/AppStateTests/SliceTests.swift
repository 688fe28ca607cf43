import Foundation
import Testing
@testable import AppState
import TestSupport

@Suite struct SliceTests {
    struct Preferences: Codable, Sendable, Equatable {
        var isDarkModeEnabled = false
        var fontSize = 12
        var labels: [String: String] = [:]
    }

    @Test func aSliceReadsAndWritesOnePart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let preferences = try app.fileState("preferences", initial: Preferences())
        let darkMode = preferences.slice(\.isDarkModeEnabled)
        let fontSize = preferences.slice(\.fontSize)

        try darkMode.setValue(true)
        try fontSize.update { $0 += 2 }
        #expect(try darkMode.read())
        #expect(try preferences.read() == Preferences(isDarkModeEnabled: true, fontSize: 14))
    }

    @Test func aSliceReachesADictionaryEntry() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let error = try app.storedState("preferences", initial: Preferences()).slice(\.labels["error"])
        #expect(try error.read() == nil)
        try error.setValue("Something failed")
        #expect(try error.read() == "Something failed")
        try error.setValue(nil)
        #expect(try app.storedState("preferences", initial: Preferences()).read().labels.isEmpty)
    }

    @Test func aSliceOfMemoryStateWorksTheSameWay() throws {
        struct Session: Sendable {
            var user: String?
            var attempts = 0
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let session = try app.state("session", initial: Session())
        let user = session.slice(\.user)
        try user.setValue("ada")
        #expect(session.value.user == "ada")
        #expect(try session.slice(\.attempts).read() == 0)
    }
}
