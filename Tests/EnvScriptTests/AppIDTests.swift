import Containers
import EnvScript
import Foundation
import Testing

/// A host uses the application identifier its home records, and refuses another.
@Suite struct AppIDTests {
    /// A temporary folder holding `home` (and, beside it, the `keys` folder), removed by `remove()`.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-appid-\(UUID().uuidString)")
        var home: URL { url.appendingPathComponent("home") }
        var record: String { home.path + "/.envscript-containers/application.json" }
        func preferences(_ appID: String) -> String { home.path + "/Library/Preferences/\(appID).plist" }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    func openHost(_ folder: Folder, appID: String?, recordsAppID: Bool = true) throws -> EnvScriptHost {
        try EnvScriptHost(configuration: HostConfiguration(home: folder.home, appID: appID, recordsAppID: recordsAppID))
    }

    @Test func theFirstHostRecordsItsIdentifierAndLaterHostsUseIt() throws {
        let folder = Folder()
        defer { folder.remove() }
        let app = try openHost(folder, appID: "com.example.shop")
        #expect(app.appID == "com.example.shop")
        try app.execute("tweak.set('checkout', 'button_color', 'red') state.stored('session', '') state.set('session', 'a')")
        app.close()
        #expect(FileManager.default.fileExists(atPath: folder.preferences("com.example.shop")))
        #expect(try AppContainer(home: folder.home).recordedApplicationID == "com.example.shop")

        // No identifier given: the recorded one, with its files and its key file.
        let adopting = try openHost(folder, appID: nil)
        defer { adopting.close() }
        #expect(adopting.appID == "com.example.shop")
        #expect(adopting.application.appID == "com.example.shop")
        #expect(adopting.secureKeyFile == folder.url.appendingPathComponent("keys/com.example.shop.key"))
        #expect(adopting.tweaks.value("checkout", "button_color", default: "none") == "red")
        #expect(try adopting.execute("state.stored('session', '') return state.get('session')") == ["a"])
        #expect(!FileManager.default.fileExists(atPath: folder.preferences("envscript")))
    }

    @Test func anotherIdentifierIsRefusedBeforeAnythingIsWritten() throws {
        let folder = Folder()
        defer { folder.remove() }
        try openHost(folder, appID: "com.example.shop").close()
        let error = try #require(throws: HostError.self) { try openHost(folder, appID: "com.example.other") }
        #expect(error == .appIDMismatch(
            home: folder.home.path, recorded: "com.example.shop", requested: "com.example.other", record: folder.record))
        for part in [folder.home.path, "'com.example.shop'", "'com.example.other'", folder.record, "--app-id com.example.shop"] {
            #expect(error.description.contains(part), "\(part) missing from: \(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.preferences("com.example.other")))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("keys/com.example.other.key").path))
    }

    @Test func aHostWithoutIdentifierRecordsTheDefaultOnlyWhenAskedTo() throws {
        let folder = Folder()
        defer { folder.remove() }
        let reader = try openHost(folder, appID: nil, recordsAppID: false)
        #expect(reader.appID == HostConfiguration.defaultAppID)
        reader.close()
        #expect(!FileManager.default.fileExists(atPath: folder.home.path + "/.envscript-containers/application.json"))

        let writer = try openHost(folder, appID: nil)
        #expect(writer.appID == "envscript")
        writer.close()
        #expect(try AppContainer(home: folder.home).recordedApplicationID == "envscript")
        #expect(throws: HostError.self) { try openHost(folder, appID: "com.example.shop") }
    }

    @Test func theRecordSurvivesASwitchAndAResetMadeFromLua() throws {
        let folder = Folder()
        defer { folder.remove() }
        let app = try openHost(folder, appID: "com.example.shop")
        try app.execute("""
            container.create('Debug') container.activate('Debug')
            tweak.set('f', 'v', 'debug')
            container.reset()
            """)
        app.close()
        #expect(try AppContainer(home: folder.home).recordedApplicationID == "com.example.shop")
        let again = try openHost(folder, appID: nil)
        defer { again.close() }
        #expect(again.appID == "com.example.shop")
        #expect(try again.containers.containers.map(\.name) == ["DEFAULT"])
    }

    @Test func anIdentifierThatCannotNameFilesIsRefused() throws {
        let folder = Folder()
        defer { folder.remove() }
        let error = try #require(throws: HostError.self) { try openHost(folder, appID: "../elsewhere") }
        #expect(error == .invalidAppID("../elsewhere", reason: "contains '/', but it names a file"))
        #expect(!FileManager.default.fileExists(atPath: folder.home.path + "/.envscript-containers"))
    }
}
