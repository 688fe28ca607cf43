import Foundation
import Synchronization
import Testing
@testable import Containers
import TestSupport

@Suite struct IsolationTests {
    @Test func aNeverSwitchedHomeHasOnlyTheActiveDefaultAndNoBookkeeping() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["notes.txt": "original"])
        let containers = try AppContainer(home: home.url)
        let all = try containers.containers
        #expect(all.map(\.name) == ["DEFAULT"])
        #expect(all[0].isDefault)
        #expect(all[0].uuid.uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(try containers.activeContainer.isDefault)
        #expect(!home.exists(".envscript-containers"))
    }

    @Test func theFirstSwitchKeepsTheOriginalDataAsDefault() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let original = ["notes.txt": "original", "Library/Preferences/app.plist": "prefs", "Documents/a/b.txt": "deep"]
        try home.write(original)
        let containers = try AppContainer(home: home.url)
        let debug = try containers.createNewContainer(name: "Debug1", description: "for QA")
        expectTree(try home.snapshot(), TemporaryHome.tree(original), "creating a container moves nothing")

        try containers.activate(container: debug)
        #expect(try home.snapshot().isEmpty)
        #expect(try containers.activeContainer.uuid == debug.uuid)
        let defaultContainer = try #require(try containers.container(uuid: Container.defaultUUID))
        expectTree(try home.stash(of: defaultContainer), TemporaryHome.tree(original))

        try containers.activateContainer(uuid: Container.defaultUUID)
        expectTree(try home.snapshot(), TemporaryHome.tree(original))
    }

    @Test func filesStayWithTheirContainerThroughManySwitches() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["shared-name.txt": "default", "only-default.txt": "d"])
        let containers = try AppContainer(home: home.url)
        let a = try containers.createNewContainer(name: "A")
        let b = try containers.createNewContainer(name: "B")
        var expected: [UUID: [String: String]] = [
            Container.defaultUUID: ["shared-name.txt": "default", "only-default.txt": "d"],
        ]

        try containers.activate(container: a)
        try home.write(["shared-name.txt": "a", "A/nested/file.txt": "a-nested"])
        expected[a.uuid] = ["shared-name.txt": "a", "A/nested/file.txt": "a-nested"]

        try containers.activate(container: b)
        #expect(try home.snapshot().isEmpty, "a new container starts empty")
        try home.write(["shared-name.txt": "b", "B.txt": "b"])
        expected[b.uuid] = ["shared-name.txt": "b", "B.txt": "b"]

        let order = [a.uuid, Container.defaultUUID, b.uuid, a.uuid, a.uuid, b.uuid, Container.defaultUUID, a.uuid]
        for uuid in order {
            try containers.activateContainer(uuid: uuid)
            #expect(try containers.activeContainer.uuid == uuid)
            expectTree(try home.snapshot(), TemporaryHome.tree(expected[uuid]!))
            for other in try containers.containers where other.uuid != uuid {
                expectTree(try home.stash(of: other), TemporaryHome.tree(expected[other.uuid]!))
            }
        }
    }

    @Test func activationIsCountedAndReactivatingTheActiveOneDoesNothing() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let a = try containers.createNewContainer(name: "A")
        #expect(a.activatedCount == 0)
        #expect(a.lastActivatedAt == nil)
        try containers.activate(container: a)
        let once = try #require(try containers.container(uuid: a.uuid))
        #expect(once.activatedCount == 1)
        #expect(once.lastActivatedAt != nil)

        let hookRuns = Counter()
        containers.addWillChangeHook { _, _ in hookRuns.next() }
        try containers.activate(container: a)
        #expect(hookRuns.value == 0)
        #expect(try containers.container(uuid: a.uuid) == once)
    }

    @Test func containersAreListedDefaultFirstThenByCreation() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let names = ["zeta", "alpha", "Mid", "émoji 🎉"]
        for name in names {
            try containers.createNewContainer(name: name)
            Thread.sleep(forTimeInterval: 0.002)
        }
        #expect(try containers.containers.map(\.name) == ["DEFAULT"] + names)
        // A second instance reads the same from disk, equal field by field.
        #expect(try AppContainer(home: home.url).containers == containers.containers)
    }

    @Test func lookupsByNameUUIDAndEither() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let a = try containers.createNewContainer(name: "A", description: "first")
        #expect(try containers.container(named: "A") == a)
        #expect(try containers.container(named: "a") == nil)
        #expect(try containers.container(uuid: a.uuid) == a)
        #expect(try containers.container(uuid: a.uuid.uuidString) == a)
        #expect(try containers.container(uuid: UUID()) == nil)
        #expect(try containers.resolve("A") == a)
        #expect(try containers.resolve(a.uuid.uuidString) == a)
        #expect(try containers.resolve(a.uuid.uuidString.lowercased()) == a)
        #expect(try containers.resolve("DEFAULT").isDefault)
        #expect(try containers.resolve("00000000-0000-0000-0000-000000000000").isDefault)
        #expect(throws: ContainerError.self) { try containers.resolve("nope") }
    }

    @Test func twoHomesAreIndependent() throws {
        let app = try TemporaryHome()
        let group = try TemporaryHome()
        defer { app.remove(); group.remove() }
        try app.write(["app.txt": "app"])
        try group.write(["group.txt": "group"])
        let appContainers = try AppContainer(home: app.url)
        let groupContainers = try AppContainer(home: group.url)
        let qa = try appContainers.createNewContainer(name: "QA")
        try appContainers.activate(container: qa)
        #expect(try app.snapshot().isEmpty)
        #expect(try group.snapshot() == TemporaryHome.tree(["group.txt": "group"]))
        #expect(try groupContainers.containers.map(\.name) == ["DEFAULT"])
    }
}
