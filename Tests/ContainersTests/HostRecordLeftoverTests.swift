import Foundation
import Locking
import TestSupport
import Testing
@testable import Containers

/// A host killed while it published its record leaves `hosts/.<id>.json.tmp-XXXXXX`; the next host
/// that publishes removes it, but not a file another host may be writing right now.
@Suite struct HostRecordLeftoverTests {
    @Test func publishingARecordRemovesTheTemporaryFilesOfKilledHosts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let hosts = AttachedHosts(home: folder.url)
        let attachment = try hosts.attach(id: "new-host")
        defer { attachment.detach() }
        let hostsFolder = URL(fileURLWithPath: hosts.folder)
        let killed = try LeftoverFile.plant(".dead-host.json.tmp-x1Y2z3", in: hostsFolder, age: TimeInterval(WriterTemporaryFile.minimumAge + 60))
        let justMade = try LeftoverFile.plant(".other-host.json.tmp-a1B2c3", in: hostsFolder, age: 0)

        try attachment.publish(AttachedHostRecord(
            id: "new-host", pid: getpid(), socketPath: hosts.socketPath(forID: "new-host"), appID: "app",
            attachedAt: Date(), apiVersion: 1))
        #expect(!FileManager.default.fileExists(atPath: killed))
        #expect(FileManager.default.fileExists(atPath: justMade))
        #expect(FileManager.default.fileExists(atPath: hosts.folder + "/new-host.json"))
    }
}
