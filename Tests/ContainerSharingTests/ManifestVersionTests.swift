import ContainerSharing
import Containers
import Foundation
import Testing
import TestSupport

/// The manifest describes its container as every front door does (`ContainerView`, format 2), and an
/// archive written in format 1 still imports.
@Suite struct ManifestVersionTests {
    @Test func theManifestsContainerIsTheAPIsView() throws {
        let fixture = try SharingFixture()
        defer { fixture.remove() }
        let debug = try fixture.containers.createNewContainer(name: "Debug", description: "logged in")
        try fixture.containers.activate(container: debug)
        let archive = fixture.folder.url.appendingPathComponent("debug.zip")
        let manifest = try fixture.containers.export(container: debug, to: archive)
        let now = try #require(try fixture.containers.container(named: "Debug"))
        #expect(manifest.version == 2)
        #expect(manifest.container == ContainerView(now, activeUUID: now.uuid))

        // On disk: the same keys as the control API's container.
        let stored = try JSONSerialization.jsonObject(with: JSONEncoder().encode(manifest)) as? [String: Any]
        let container = try #require(stored?["container"] as? [String: Any])
        #expect(Set(container.keys) == ["uuid", "name", "description", "is_default", "is_active", "created_at", "last_activated_at", "activated_count"])
        #expect(container["uuid"] as? String == debug.uuid.uuidString)

        // An inactive container is exported as not active.
        let other = try fixture.containers.createNewContainer(name: "Other")
        let otherManifest = try fixture.containers.export(container: other, to: fixture.folder.url.appendingPathComponent("other.zip"))
        #expect(!otherManifest.container.isActive && otherManifest.container.uuid == other.uuid.uuidString)
    }

    @Test func anArchiveOfFormatOneStillImports() throws {
        let fixture = try SharingFixture()
        defer { fixture.remove() }
        var archive = CraftedArchive()
        archive.addFolder("data/docs")
        archive.addFile("data/docs/ok.txt", "fine")
        let entries = String(decoding: try JSONEncoder().encode(archive.entries), as: UTF8.self)
        archive.manifestText = #"{"format":"envscript-container","version":1,"container":{"name":"Old","description":"from v1","createdAt":"2026-01-01T00:00:00Z","activatedCount":3},"exportedAt":"2026-01-02T00:00:00Z","entries":"# + entries + "}"
        let url = fixture.folder.url.appendingPathComponent("v1.zip")
        try archive.write(to: url)
        let imported = try fixture.containers.importContainer(from: url, name: nil)
        #expect(imported.name == "Old" && imported.description == "from v1")
    }
}
