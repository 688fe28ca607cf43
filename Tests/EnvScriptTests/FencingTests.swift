import Containers
import EnvScript
import Foundation
import LuaBridge
import Preferences
import Testing

/// A host whose home is switched by someone it never heard from (it is not attached, so nobody can
/// reach it): its writes still land in the container whose data it read, never in the container live
/// now (issue "One home, many processes", item 2).
@Suite struct FencingTests {
    /// The home switched to a new container `B` (holding `k = "B-value"`) behind the host's back.
    private func switchBehindTheHostsBack(_ fixture: HostFixture) throws -> (other: AppContainer, b: Container) {
        let other = try AppContainer(home: fixture.host.configuration.home)
        let b = try other.createNewContainer(name: "B")
        try other.activate(container: b)
        let bStore = PreferencesStore(home: fixture.host.configuration.home, appID: "tests")
        try bStore.set(.string("B-value"), forKey: "k")
        try bStore.flush()
        return (other, b)
    }

    private func storedValue(_ key: String, in file: URL) throws -> PreferenceValue? {
        try PreferencesStore(fileURL: file).value(forKey: key)
    }

    @Test func aStoredStateWriteUnderAnOldGenerationGoesToTheContainerItWasReadIn() throws {
        let fixture = try HostFixture(attaches: false)
        let home = fixture.host.configuration.home
        try fixture.run("state.stored('k', '') state.set('k', 'DEFAULT-value')")
        let (_, _) = try switchBehindTheHostsBack(fixture)

        try fixture.host.application.flush()

        let live = PreferencesStore.fileURL(home: home, appID: "tests")
        #expect(try storedValue("k", in: live) == .string("B-value"), "B's own value is intact")
        let stash = home.appendingPathComponent(
            ".envscript-containers/containers/\(Container.defaultUUID.uuidString)/data/Library/Preferences/tests.plist")
        #expect(try storedValue("k", in: stash) == .string("DEFAULT-value"), "the write reached DEFAULT where it now waits")
    }

    @Test func fileAndSecureStateWritesAreFencedToo() throws {
        let fixture = try HostFixture(attaches: false)
        let home = fixture.host.configuration.home
        try fixture.run("state.file('cart', 'empty') state.secure('token', '') state.get('cart') state.get('token')")
        _ = try switchBehindTheHostsBack(fixture)

        try fixture.run("state.set('cart', 'apple') state.set('token', 'secret')")

        let liveCart = fixture.host.application.fileStateFolder.appendingPathComponent("cart.json")
        #expect(!FileManager.default.fileExists(atPath: liveCart.path), "nothing written into B")
        #expect(!FileManager.default.fileExists(atPath: fixture.host.application.secureStateFolder.path))
        let defaultData = home.appendingPathComponent(".envscript-containers/containers/\(Container.defaultUUID.uuidString)/data")
        let stashedCart = defaultData.appendingPathComponent("Library/Application Support/EnvScript/State/cart.json")
        #expect(try String(contentsOf: stashedCart, encoding: .utf8).contains("apple"))
        #expect(FileManager.default.fileExists(
            atPath: defaultData.appendingPathComponent("Library/Application Support/EnvScript/SecureState/token.sealed").path))
    }

    @Test func aWriteIntoADeletedContainerIsRefusedWithAnExplanation() throws {
        let fixture = try HostFixture(attaches: false)
        let home = fixture.host.configuration.home
        try fixture.run("container.create('Gone') container.activate('Gone') state.stored('k', '') state.set('k', 'lost?')")
        let other = try AppContainer(home: home)
        try other.activate(container: try other.resolve("DEFAULT"))
        try other.delete(container: try other.resolve("Gone"))

        #expect {
            try fixture.host.application.flush()
        } throws: { error in
            "\(error)".contains("which another process deleted") && "\(error)".contains("nothing was written")
        }
        let live = PreferencesStore.fileURL(home: home, appID: "tests")
        #expect(try storedValue("k", in: live) == nil, "never written into DEFAULT")
    }

    @Test func aHostThatTakesPartInASwitchWritesIntoTheNewContainer() throws {
        let fixture = try HostFixture(attaches: false)
        let home = fixture.host.configuration.home
        try fixture.run("state.stored('k', '') container.create('B') container.activate('B') state.set('k', 'B-now')")
        try fixture.host.application.flush()
        #expect(try storedValue("k", in: PreferencesStore.fileURL(home: home, appID: "tests")) == .string("B-now"))
    }
}
