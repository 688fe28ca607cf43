import Foundation
import Testing
@testable import Containers
import Locking
import TestSupport

/// Changes of the list of containers reach the list hooks, and a container's room on disk is measured
/// where its entries are.
@Suite struct ContainerListTests {
    /// The changes a list hook heard, in order.
    private final class Heard: Sendable {
        let changes = Locked<[ContainerListChange]>([])
        var all: [ContainerListChange] { changes.withLock { $0 } }
    }

    @Test func everyChangeOfTheListReachesTheListHooksAndSwitchesDoNot() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let heard = Heard()
        let token = containers.addContainerListHook { change in heard.changes.withLock { $0.append(change) } }

        let b = try containers.createNewContainer(name: "B")
        let copy = try containers.clone(container: b, name: "B copy")
        try containers.activate(container: b)
        try containers.updateInfo(container: copy, description: "a copy")
        try containers.delete(container: copy)
        try containers.reset()
        #expect(heard.all == [
            ContainerListChange(kind: .created, uuid: b.uuid),
            ContainerListChange(kind: .created, uuid: copy.uuid),
            ContainerListChange(kind: .updated, uuid: copy.uuid),
            ContainerListChange(kind: .deleted, uuid: copy.uuid),
            ContainerListChange(kind: .reset, uuid: nil),
        ])

        #expect(containers.removeHook(token))
        _ = try containers.createNewContainer(name: "C")
        #expect(heard.all.count == 5, "a removed hook hears nothing")
    }

    @Test func aRefusedChangeIsNotReported() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let heard = Heard()
        containers.addContainerListHook { change in heard.changes.withLock { $0.append(change) } }
        _ = try containers.createNewContainer(name: "B")
        #expect(throws: ContainerError.self) { try containers.createNewContainer(name: "B") }
        #expect(throws: ContainerError.self) { try containers.delete(container: containers.resolve("DEFAULT")) }
        #expect(heard.all.map(\.kind) == [.created])
    }

    @Test func theActiveContainerIsMeasuredInTheLiveHomeWithoutExcludedEntriesOrBookkeeping() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        containers.customExcludeFiles = ["cache.bin"]
        let b = try containers.createNewContainer(name: "B")
        try containers.activate(container: b)
        let kilobyteOfText = String(repeating: "x", count: 1024)
        try home.write(["a.txt": kilobyteOfText, "docs/b.txt": kilobyteOfText, "cache.bin": String(repeating: "c", count: 100_000)])

        let active = try containers.diskUsage(of: b)
        #expect(active.entries == 3, "a.txt, docs and docs/b.txt: \(active)")
        let expected = try allocatedBytes(home.path, ["a.txt", "docs", "docs/b.txt"])
        #expect(active.bytes == expected)
        #expect(active.bytes < 100_000, "the excluded file is not counted")

        // Once B is stashed, its entries are measured there, to the same figure (the excluded file stays).
        try containers.activate(container: containers.resolve("DEFAULT"))
        let stashed = try containers.diskUsage(of: b)
        #expect(stashed.entries == 3)
        #expect(stashed.bytes == (try allocatedBytes(HomeLayout(home: home.url).dataFolder(b.uuid), ["a.txt", "docs", "docs/b.txt"])))
        #expect(home.exists("cache.bin"), "the excluded file stays in the live home")
        #expect(try containers.diskUsage(of: containers.resolve("DEFAULT")) == ContainerDiskUsage(bytes: 0, entries: 0),
                "DEFAULT holds only the excluded file, which is not counted")
    }

    @Test func aHardLinkedFileCountsOnceAndAnEmptyContainerIsZero() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let empty = try containers.createNewContainer(name: "Empty")
        #expect(try containers.diskUsage(of: empty) == ContainerDiskUsage(bytes: 0, entries: 0))

        try home.write(["big.bin": String(repeating: "b", count: 64 * 1024)])
        #expect(link(home.path + "/big.bin", home.path + "/again.bin") == 0)
        let usage = try containers.diskUsage(of: containers.activeContainer)
        #expect(usage.entries == 2)
        #expect(usage.bytes == (try allocatedBytes(home.path, ["big.bin"])))
        #expect(usage.bytes >= 64 * 1024)
    }

    @Test func aDeletedContainerCannotBeMeasured() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let gone = try containers.createNewContainer(name: "Gone")
        try containers.delete(container: gone)
        let error = #expect(throws: ContainerError.self) { try containers.diskUsage(of: gone) }
        #expect("\(error.map { $0 as Any } ?? "none")".contains(gone.uuid.uuidString))
    }

    /// The blocks of `entries` under `folder`, as `du` would add them up.
    private func allocatedBytes(_ folder: String, _ entries: [String]) throws -> Int64 {
        try entries.reduce(0) { total, entry in
            var info = stat()
            guard lstat(folder + "/" + entry, &info) == 0 else { throw SystemCallError("lstat") }
            return total + Int64(info.st_blocks) * 512
        }
    }
}
