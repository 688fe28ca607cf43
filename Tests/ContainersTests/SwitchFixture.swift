import Foundation
import Testing
@testable import Containers

/// A home with three containers (DEFAULT, A, B), each holding its own files — many at the same paths
/// with different content — plus excluded files shared by all, and the means to check after any crash
/// that every container still holds exactly its files.
struct SwitchFixture {
    static let excludeRules = ["keep.plist"]
    /// Excluded files: they stay in the live home whatever the active container.
    static let excludedFiles = ["keep.plist": "shared top", "Library/keep.plist": "shared nested"]

    private(set) var home: TemporaryHome
    /// Each container's files, by UUID.
    private(set) var files: [UUID: [String: String]] = [:]
    private(set) var a: Container
    private(set) var b: Container

    /// Builds the home.
    ///
    /// - Parameter filesPerContainer: about how many files each container holds, spread over a few
    ///   top-level folders (some with nested levels) and top-level files.
    /// - Parameter parent: the folder to make the home in (see ``TemporaryHome/init(_:in:)``).
    init(filesPerContainer: Int, label: String = #function, in parent: URL = FileManager.default.temporaryDirectory) throws {
        let root = try TemporaryHome(label, in: parent)
        try root.write(Self.excludedFiles)
        var created: [UUID: [String: String]] = [:]
        let containers = try AppContainer(home: root.url)
        containers.customExcludeFiles = Self.excludeRules

        func fill(_ tag: String) throws -> [String: String] {
            var contents: [String: String] = [:]
            for index in 0..<filesPerContainer {
                let path: String
                switch index % 5 {
                case 0: path = "Documents/d\(index / 50)/f\(index).txt"
                case 1: path = "Library/Preferences/p\(index).plist"
                case 2: path = "Library/Caches/c\(index % 7)/x\(index)"
                case 3: path = "top\(index % 4).txt"
                default: path = "\(tag)-only/\(index).bin"
                }
                contents[path] = "\(tag) \(path) #\(index)"
            }
            try root.write(contents)
            return contents
        }

        created[Container.defaultUUID] = try fill("DEFAULT")
        let a = try containers.createNewContainer(name: "A")
        try containers.activate(container: a)
        created[a.uuid] = try fill("A")
        let b = try containers.createNewContainer(name: "B")
        try containers.activate(container: b)
        created[b.uuid] = try fill("B")
        try containers.activateContainer(uuid: Container.defaultUUID)
        home = root
        files = created
        self.a = a
        self.b = b
    }

    /// A fresh instance over the home, with the fixture's rules; opening it repairs a crashed switch.
    func open() throws -> AppContainer {
        let containers = try AppContainer(home: home.url)
        containers.customExcludeFiles = Self.excludeRules
        return containers
    }

    /// Points the fixture at a copy of its home.
    mutating func rehome(_ copy: TemporaryHome) {
        home = copy
    }

    var uuids: [UUID] { [Container.defaultUUID, a.uuid, b.uuid] }

    /// Checks that the live home holds exactly the active container's files and the excluded ones, and
    /// every other container's stash exactly its own files; returns the active container.
    @discardableResult
    func verify(sourceLocation: SourceLocation = #_sourceLocation) throws -> UUID {
        let layout = HomeLayout(home: home.url)
        let active = try MetadataStore(layout: layout).activeUUID()
        #expect(!FileManager.default.fileExists(atPath: layout.journal), "no journal is left", sourceLocation: sourceLocation)
        var live = files[active]!
        live.merge(Self.excludedFiles) { _, _ in Issue.record("fixture overlap"); return "" }
        expectTree(try home.snapshot(), TemporaryHome.tree(live), "live home (active \(active))", sourceLocation: sourceLocation)
        for uuid in uuids {
            let stash = try TemporaryHome.snapshot(of: layout.dataFolder(uuid))
            let expected = uuid == active ? [:] : TemporaryHome.tree(files[uuid]!)
            expectTree(stash, expected, "stash of \(uuid)", sourceLocation: sourceLocation)
            let hidden = try TemporaryHome.snapshot(of: layout.hiddenFolder(uuid))
            expectTree(hidden, [:], "hidden of \(uuid)", sourceLocation: sourceLocation)
        }
        let listed = try MetadataStore(layout: layout).allContainers().map(\.uuid)
        #expect(Set(listed) == Set(uuids), sourceLocation: sourceLocation)
        return active
    }
}
