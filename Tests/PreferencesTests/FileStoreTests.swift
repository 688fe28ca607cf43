import Foundation
import Testing
@testable import Preferences
import TestSupport

@Suite struct FileStoreTests {
    struct Document: Codable, Equatable {
        var title: String
        var numbers: [Int]
    }

    @Test func folderFollowsTheHomeAndAppID() {
        let url = FileStore.folderURL(home: URL(fileURLWithPath: "/h"), appID: "app")
        #expect(url.path == "/h/Library/Application Support/app")
    }

    @Test func dataRoundTripsAndRemoves() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileStore(home: folder.url, appID: "app")
        #expect(try store.data(forKey: "blob") == nil)
        let blob = Data((0..<200_000).map { UInt8($0 % 251) })
        try store.write(blob, forKey: "blob")
        #expect(try store.data(forKey: "blob") == blob)
        #expect(try store.keys() == ["blob"])
        try store.removeValue(forKey: "blob")
        try store.removeValue(forKey: "blob")
        #expect(try store.data(forKey: "blob") == nil)
        #expect(try store.keys() == [])
    }

    @Test func codableValuesAreJSON() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileStore(home: folder.url, appID: "app")
        let document = Document(title: "t", numbers: [1, 2, 3])
        try store.encode(document, forKey: "doc")
        #expect(try store.decode(Document.self, forKey: "doc") == document)
        try store.write(Data("{".utf8), forKey: "broken")
        let error = #expect(throws: PreferencesError.self) { try store.decode(Document.self, forKey: "broken") }
        #expect("\(error!)".contains("broken"))
    }

    @Test func keysNeverEscapeTheFolderOrCollide() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileStore(home: folder.url, appID: "app")
        let keys = ["../escape", "a/b", ".hidden", "a%2Fb", "é", "plain.json"]
        for key in keys { try store.write(Data(key.utf8), forKey: key) }
        for key in keys {
            #expect(try store.data(forKey: key) == Data(key.utf8))
            #expect(try store.url(forKey: key).deletingLastPathComponent().standardizedFileURL.path
                == store.folderURL.standardizedFileURL.path)
        }
        #expect(try store.keys() == keys.sorted())
        #expect(throws: PreferencesError.self) { try store.url(forKey: "") }
        #expect(throws: PreferencesError.self) { try store.url(forKey: String(repeating: "/", count: 100)) }
    }

    @Test func writesReplaceWholeFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileStore(home: folder.url, appID: "app")
        try store.write(Data(repeating: 1, count: 1000), forKey: "k")
        try store.write(Data([2]), forKey: "k", permissions: 0o600)
        #expect(try store.data(forKey: "k") == Data([2]))
        let attributes = try FileManager.default.attributesOfItem(atPath: try store.url(forKey: "k").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
