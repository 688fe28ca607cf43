import Foundation
import TestSupport
import Testing
@testable import Containers

/// Switches on a real, nearly full file system (issue #32, point 13): a switch that runs out of space
/// fails with nothing changed on disk and leaves no journal that would carry it out later.
@Suite(.serialized) struct FullDiskSwitchTests {
    /// Every file and folder under the home, the bookkeeping included, with its content.
    private func wholeHome(_ fixture: SwitchFixture) throws -> [String: TreeEntry] {
        try TemporaryHome.snapshot(of: fixture.home.path)
    }

    @Test func aSwitchThatRunsOutOfSpaceAtAnyPointChangesNothing() throws {
        var failed: [Int] = []
        var succeeded: [Int] = []
        // From no free page up to more than a switch needs: each level stops the switch at another write.
        for freePages in 0...8 {
            let disk = try MountedFileSystem.tmpfs(kibibytes: 2048)
            defer { disk.unmount() }
            let fixture = try SwitchFixture(filesPerContainer: 30, in: disk.url)
            try fixture.open().activate(container: fixture.b)
            let before = try wholeHome(fixture)
            try disk.fill(leavingFree: freePages * 4096)

            do {
                try fixture.open().activate(container: fixture.a)
                succeeded.append(freePages)
                #expect(try fixture.verify() == fixture.a.uuid, "switched with \(freePages) pages free")
            } catch let error as ContainerError {
                guard case .io(let path, let underlying as SystemCallError) = error.reason else { throw error }
                failed.append(freePages)
                #expect(underlying.code == ENOSPC, "\(path): \(underlying)")
                expectTree(try wholeHome(fixture), before, "the home after a switch failed with \(freePages) pages free")
                let layout = HomeLayout(home: fixture.home.url)
                #expect(try layout.journals.allSatisfy { try !FileSystem.exists($0) }, "no journal is left")
                // The next command, with space again, finds the home on B and does not switch it.
                try FileManager.default.removeItem(at: disk.url.appendingPathComponent("filler"))
                #expect(try fixture.open().activeContainer.uuid == fixture.b.uuid)
                #expect(try fixture.verify() == fixture.b.uuid)
            }
        }
        #expect(!failed.isEmpty && !succeeded.isEmpty, "failed with \(failed), succeeded with \(succeeded) pages free")
    }
}
