import Foundation
import Testing
@testable import Containers

/// The home remembers the application it belongs to: recorded once, kept by switches and resets.
@Suite struct ApplicationRecordTests {
    @Test func aHomeNeverRecordedIsUntouchedByReaders() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        #expect(try containers.recordedApplicationID == nil)
        #expect(try containers.settleApplicationID(requested: nil, fallback: "envscript", recording: false) == "envscript")
        #expect(try containers.settleApplicationID(requested: "com.example.shop", fallback: "envscript", recording: false) == "com.example.shop")
        #expect(!home.exists(".envscript-containers"))
    }

    @Test func theFirstRecordDecidesAndAnotherIdentifierIsRefused() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let first = try AppContainer(home: home.url)
        #expect(try first.settleApplicationID(requested: "com.example.shop", fallback: "envscript", recording: true) == "com.example.shop")
        let record = try #require(try home.read(".envscript-containers/application.json"))
        #expect(record.contains("\"applicationID\" : \"com.example.shop\""))
        #expect(first.applicationRecordPath == home.path + "/.envscript-containers/application.json")

        // Another process adopts it without asking, or asks for it; a new home was not "initialized".
        let later = try AppContainer(home: home.url)
        #expect(try later.recordedApplicationID == "com.example.shop")
        #expect(try later.settleApplicationID(requested: nil, fallback: "envscript", recording: true) == "com.example.shop")
        #expect(try later.settleApplicationID(requested: "com.example.shop", fallback: "envscript", recording: false) == "com.example.shop")
        #expect(try later.containers.map(\.name) == ["DEFAULT"])

        let error = try #require(throws: ApplicationIDError.self) {
            try later.settleApplicationID(requested: "com.example.other", fallback: "envscript", recording: true)
        }
        #expect(error == .mismatch(
            home: home.path, recorded: "com.example.shop", requested: "com.example.other",
            record: home.path + "/.envscript-containers/application.json"))
        #expect(error.description.contains("delete '\(home.path)/.envscript-containers/application.json'"))
        #expect(try later.recordedApplicationID == "com.example.shop")
    }

    @Test func theRecordIsNeitherAContainerNorSwitched() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["Library/Preferences/com.example.shop.plist": "default"])
        let containers = try AppContainer(home: home.url)
        try containers.settleApplicationID(requested: "com.example.shop", fallback: "envscript", recording: true)
        let debug = try containers.createNewContainer(name: "Debug")
        try containers.activate(container: debug)
        #expect(try home.snapshot().isEmpty)
        #expect(try containers.containers.map(\.name) == ["DEFAULT", "Debug"])
        #expect(try AppContainer(home: home.url).recordedApplicationID == "com.example.shop")
        try containers.activate(container: try containers.resolve("DEFAULT"))
        expectTree(try home.snapshot(), TemporaryHome.tree(["Library/Preferences/com.example.shop.plist": "default"]))
        #expect(try containers.recordedApplicationID == "com.example.shop")
    }

    @Test func resetKeepsTheRecord() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["original.txt": "o"])
        let containers = try AppContainer(home: home.url)
        try containers.settleApplicationID(requested: "com.example.shop", fallback: "envscript", recording: true)
        try containers.activate(container: try containers.createNewContainer(name: "B"))
        try containers.reset()
        expectTree(try home.snapshot(), TemporaryHome.tree(["original.txt": "o"]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/.envscript-containers") == ["application.json"])
        #expect(!home.exists(".envscript-containers.removed"))
        #expect(try containers.containers.map(\.name) == ["DEFAULT"])
        #expect(try AppContainer(home: home.url).recordedApplicationID == "com.example.shop")
        #expect(throws: ApplicationIDError.self) {
            try containers.settleApplicationID(requested: "envscript", fallback: "envscript", recording: true)
        }

        // The home works as a new one, and resetting it again (with no container) keeps the record too.
        try containers.activate(container: try containers.createNewContainer(name: "C"))
        #expect(try home.snapshot().isEmpty)
        try containers.reset()
        try containers.reset()
        expectTree(try home.snapshot(), TemporaryHome.tree(["original.txt": "o"]))
        #expect(try containers.recordedApplicationID == "com.example.shop")
    }

    @Test func aResetInterruptedAfterItsRenameKeepsTheRecord() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        try containers.settleApplicationID(requested: "com.example.shop", fallback: "envscript", recording: true)
        try containers.createNewContainer(name: "B")
        // What a crash right after reset's rename leaves: only the renamed bookkeeping.
        let layout = HomeLayout(home: home.url)
        try FileManager.default.moveItem(atPath: layout.bookkeeping, toPath: layout.removedBookkeeping)

        // Readers that take no lock still see it; the next locked operation puts it back in place.
        #expect(try containers.recordedApplicationID == "com.example.shop")
        #expect(throws: ApplicationIDError.self) {
            try containers.settleApplicationID(requested: "com.example.other", fallback: "envscript", recording: true)
        }
        try containers.createNewContainer(name: "C")
        #expect(!home.exists(".envscript-containers.removed"))
        #expect(try home.read(".envscript-containers/application.json")?.contains("com.example.shop") == true)
        #expect(try containers.containers.map(\.name) == ["DEFAULT", "C"])
        #expect(try AppContainer(home: home.url).recordedApplicationID == "com.example.shop")
    }

    @Test func anOpeningCarriesALeftoverRecordOverButNeverReplacesOne() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let layout = HomeLayout(home: home.url)
        try FileManager.default.createDirectory(atPath: layout.removedBookkeeping, withIntermediateDirectories: true)
        try Data(#"{"applicationID": "com.example.shop", "version": 1}"#.utf8)
            .write(to: URL(fileURLWithPath: layout.removedApplicationRecord))
        #expect(try AppContainer(home: home.url).recordedApplicationID == "com.example.shop")
        #expect(!home.exists(".envscript-containers.removed"))

        try FileManager.default.createDirectory(atPath: layout.removedBookkeeping, withIntermediateDirectories: true)
        try Data(#"{"applicationID": "com.example.older", "version": 1}"#.utf8)
            .write(to: URL(fileURLWithPath: layout.removedApplicationRecord))
        #expect(try AppContainer(home: home.url).recordedApplicationID == "com.example.shop")
        #expect(!home.exists(".envscript-containers.removed"))
    }

    @Test(arguments: ["", "a/b", ".", "..", " com.example", "com.example ", "com\u{7}x", String(repeating: "a", count: 201)])
    func identifiersThatCannotNameFilesAreRefused(_ identifier: String) throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let error = try #require(throws: ApplicationIDError.self) {
            try containers.settleApplicationID(requested: identifier, fallback: "envscript", recording: true)
        }
        guard case .invalid(let refused, _) = error.reason else { Issue.record("expected .invalid, got \(error)"); return }
        #expect(refused == identifier)
        #expect(error.description.contains("com.example.app"))
        #expect(!home.exists(".envscript-containers"))
    }

    @Test func anUnusableRecordIsReported() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write([".envscript-containers/application.json": #"{"applicationID": "a/b", "version": 1}"#])
        let containers = try AppContainer(home: home.url)
        #expect {
            try containers.recordedApplicationID
        } throws: { error in
            guard case .corruptMetadata(let path, _)? = (error as? ContainerError)?.reason else { return false }
            return path.hasSuffix("/.envscript-containers/application.json") && "\(error)".contains("'a/b'")
        }
        try home.write([".envscript-containers/application.json": "{"])
        #expect {
            try containers.settleApplicationID(requested: nil, fallback: "envscript", recording: true)
        } throws: { error in
            guard (error as? ContainerError)?.code == .corruptMetadata else { return false }
            return "\(error)".contains("not an application record")
        }
    }

    @Test func theStartUpScriptIsRecordedBesideTheIdentifierOfAClaimedHome() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        // A home nobody claimed gets none, and reading does not create the bookkeeping.
        #expect(try containers.recordStartupScript("/app/envscript.lua", replacing: true) == false)
        #expect(try AppContainer.recordedStartupScript(home: home.url) == nil)
        #expect(!home.exists(".envscript-containers/application.json"))

        try containers.settleApplicationID(requested: "com.example.shop", fallback: "envscript", recording: true)
        #expect(try containers.recordStartupScript("/app/envscript.lua", replacing: false))
        #expect(try AppContainer.recordedStartupScript(home: home.url) == "/app/envscript.lua")
        // A tool from another project keeps it; the application, moved, replaces it.
        #expect(try containers.recordStartupScript("/other/envscript.lua", replacing: false) == false)
        #expect(try AppContainer.recordedStartupScript(home: home.url) == "/app/envscript.lua")
        #expect(try containers.recordStartupScript("/moved/envscript.lua", replacing: true))
        #expect(try AppContainer.recordedStartupScript(home: home.url) == "/moved/envscript.lua")
        #expect(try containers.recordedApplicationID == "com.example.shop")

        // The record says which script in plain JSON; a relative path there is reported, not guessed at.
        try home.write([".envscript-containers/application.json": #"{"applicationID": "com.example.shop", "version": 1, "startupScript": "envscript.lua"}"#])
        #expect {
            try AppContainer.recordedStartupScript(home: home.url)
        } throws: { error in
            guard (error as? ContainerError)?.code == .corruptMetadata else { return false }
            return "\(error)".contains("'envscript.lua' is not an absolute path")
        }
    }

    /// Processes opening a new home at once with different identifiers: exactly one records its own,
    /// the other is refused with the winner's name.
    @Test func twoProcessesClaimingANewHomeAtOnceAgreeOnOne() throws {
        for round in 0..<6 {
            let home = try TemporaryHome()
            defer { home.remove() }
            let identifiers = ["com.example.first", "com.example.second"]
            let helpers = try identifiers.map { try CrashHelperProcess(["claim", home.path, $0]) }
            for helper in helpers { #expect(helper.readLine() == "R") }
            for helper in helpers { helper.send("go") }
            let outcomes = helpers.map { $0.finish() }

            let recorded = try #require(try AppContainer(home: home.url).recordedApplicationID)
            let winners = zip(identifiers, outcomes).filter { $0.1.exitStatus == 0 }
            #expect(winners.count == 1, "round \(round): \(outcomes.map(\.errors))")
            for (identifier, outcome) in zip(identifiers, outcomes) {
                if identifier == recorded {
                    #expect(outcome.exitStatus == 0)
                    #expect(outcome.output == "\(identifier)\n")
                } else {
                    #expect(outcome.exitStatus == 2)
                    #expect(outcome.errors.contains("belongs to the application '\(recorded)'"))
                    #expect(outcome.errors.contains("not to '\(identifier)'"))
                }
            }
        }
    }
}
