import ContainerSharing
import Containers
import Foundation
import TestSupport
import Testing
import ZIPFoundation

/// An archive never carries the temporary files of atomic writes (`.envscript.plist.tmp-XXXXXX`),
/// whether a killed writer left them or a writer is at work; files that only look alike travel.
@Suite struct TemporaryFileExportTests {
    @Test func anExportLeavesTemporaryFilesOut() throws {
        let fixture = try SharingFixture()
        defer { fixture.remove() }
        try fixture.write([
            "Library/Preferences/envscript.plist": "plist",
            "Library/Preferences/.envscript.plist.tmp-Ab12Cd": "half a write",
            "deep/.state.json.tmp-zz99zz": "half a write",
            "deep/.notes.tmp-kept": "a file of the app's own",
        ])
        let archive = fixture.folder.url.appendingPathComponent("out.zip")
        let manifest = try fixture.containers.export(container: fixture.containers.resolve("DEFAULT"), to: archive)
        let paths = manifest.entries.map(\.path)
        #expect(paths.contains("data/Library/Preferences/envscript.plist"))
        #expect(paths.contains("data/deep/.notes.tmp-kept"))
        #expect(!paths.contains { $0.contains(".tmp-Ab12Cd") || $0.contains(".tmp-zz99zz") }, "\(paths)")
        let zipped = try Archive(url: archive, accessMode: .read).map(\.path)
        #expect(!zipped.contains { $0.contains(".tmp-Ab12Cd") || $0.contains(".tmp-zz99zz") }, "\(zipped)")
    }
}
