import Foundation
import Testing
@testable import AppState
import TestSupport

@Suite struct SecureStateTests {
    struct Credentials: Codable, Equatable, Sendable {
        var user: String
        var password: String
    }

    @Test func theFileHoldsNoPlaintextAndIsPrivate() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let credentials = try app.secureState("credentials", initial: Credentials(user: "", password: ""))
        try credentials.setValue(Credentials(user: "ada", password: "correct horse battery staple"))

        let sealed = try Data(contentsOf: credentials.fileURL)
        #expect(sealed.prefix(4) == Data("ESS1".utf8))
        #expect(sealed.range(of: Data("correct horse".utf8)) == nil)
        #expect(sealed.range(of: Data("ada".utf8)) == nil)
        #expect(try permissions(of: credentials.fileURL) == 0o600)
        #expect(try credentials.read().password == "correct horse battery staple")
    }

    @Test func theKeyFileIsCreatedOutsideTheHomeWithMode0600() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        #expect(!FileManager.default.fileExists(atPath: containers.keyFile.path))
        try app.secureState("token").setValue("t")

        #expect(try permissions(of: containers.keyFile) == 0o600)
        #expect(try Data(contentsOf: containers.keyFile).count == 32)
        // A second application over the same key file reads the value: the key is stable.
        let again = containers.makeApplication()
        #expect(try again.secureState("token").read() == "t")
    }

    @Test func withoutAKeyTheValueCannotBeRead() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        try containers.makeApplication().secureState("token").setValue("secret")

        let keyless = Application(home: containers.home, appID: "com.example.app")
        let token = try keyless.secureState("token")
        let error = #expect(throws: AppStateError.self) { _ = try token.read() }
        #expect(error?.codeName == "secureKeyMissing")
        #expect(error?.description.contains("secureKey") == true)
    }

    @Test func aWrongKeyFailsClearlyAndNeverReturnsGarbage() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        try containers.makeApplication().secureState("token").setValue("secret")

        let otherKey = Application(
            home: containers.home, appID: "com.example.app", secureKey: .keyBytes(Data(repeating: 7, count: 32)))
        let error = #expect(throws: AppStateError.self) { _ = try otherKey.secureState("token").read() }
        #expect(error?.codeName == "decryptionFailed")
        #expect(error?.description.contains("not the one it was written with") == true)
    }

    @Test func aDamagedFileFailsToOpen() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let token = try app.secureState("token")
        try token.setValue("secret")
        var sealed = try Data(contentsOf: token.fileURL)
        sealed[sealed.count - 1] ^= 0x01
        try sealed.write(to: token.fileURL)

        let fresh = containers.makeApplication()
        #expect(thrownCase { _ = try fresh.secureState("token").read() } == "decryptionFailed")
        try Data("short".utf8).write(to: token.fileURL)
        #expect(thrownCase { _ = try containers.makeApplication().secureState("token").read() } == "decryptionFailed")
    }

    @Test func aSealedValueDoesNotPassForAnotherKeysValue() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let admin = try app.secureState("admin-token")
        let guest = try app.secureState("guest-token")
        try admin.setValue("admin")
        try guest.setValue("guest")
        try FileManager.default.removeItem(at: guest.fileURL)
        try FileManager.default.copyItem(at: admin.fileURL, to: guest.fileURL)

        #expect(thrownCase { _ = try containers.makeApplication().secureState("guest-token").read() } == "decryptionFailed")
    }

    @Test func aKeyFileOthersCanReadIsRefused() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        try containers.makeApplication().loadSecureKey()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: containers.keyFile.path)

        let app = containers.makeApplication()
        let error = #expect(throws: AppStateError.self) { try app.loadSecureKey() }
        #expect(error?.codeName == "keyFilePermissions")
        #expect(error?.description.contains("chmod 600") == true)

        // Fixing the mode is enough: the failure was not kept.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: containers.keyFile.path)
        try app.loadSecureKey()
    }

    @Test func aKeyFileInsideTheHomeIsRefused() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let inside = containers.home.appendingPathComponent("Library/secure.key")
        let app = Application(home: containers.home, appID: "com.example.app", secureKey: .keyFile(inside))
        #expect(thrownCase { try app.loadSecureKey() } == "keyFileInsideHome")
        #expect(!FileManager.default.fileExists(atPath: inside.path))
    }

    @Test func aKeyFileOfTheWrongSizeIsRefused() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        try FileManager.default.createDirectory(
            at: containers.keyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 1, count: 31).write(to: containers.keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: containers.keyFile.path)
        #expect(thrownCase { try containers.makeApplication().loadSecureKey() } == "keyFileInvalid")
    }

    @Test func aKeyGivenByTheHostWorksAndABadOneIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let key = Data((0..<32).map { UInt8($0) })
        let app = Application(home: folder.url, appID: "app", secureKey: .keyBytes(key))
        try app.secureState("pin", initial: 0).setValue(1234)
        let again = Application(home: folder.url, appID: "app", secureKey: .keyBytes(key))
        #expect(try again.secureState("pin", initial: 0).read() == 1234)

        let bad = Application(home: folder.url, appID: "app", secureKey: .keyBytes(Data(count: 5)))
        #expect(thrownCase { try bad.loadSecureKey() } == "invalidSecureKey")
    }

    @Test func resettingNeedsNoKey() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let token = try containers.makeApplication().secureState("token")
        try token.setValue("secret")
        let keyless = Application(home: containers.home, appID: "com.example.app")
        try keyless.secureState("token").reset()
        #expect(!FileManager.default.fileExists(atPath: token.fileURL.path))
    }

    @Test func concurrentFirstUsesCreateOneKey() async throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let apps = (0..<8).map { _ in containers.makeApplication() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, app) in apps.enumerated() {
                group.addTask { try app.secureState("value-\(index)", initial: 0).setValue(index) }
            }
            try await group.waitForAll()
        }
        let reader = containers.makeApplication()
        for index in apps.indices {
            #expect(try reader.secureState("value-\(index)", initial: -1).read() == index)
        }
    }

    private func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
