#if !Control
import Containers
import Foundation

/// How a host built without the `Control` trait is attached to its home: it takes the liveness lock
/// and publishes a record with no control socket (``AttachedHostRecord/hasControlSocket`` false), so
/// that a switch asked by another process — the command line — finds it and refuses, saying this
/// running application cannot take part, instead of moving the data under it unseen.
///
/// It is its host's ``RemoteParticipants`` too: the host's own changes go ahead while no other host is
/// attached, and are refused while one is, since this build has no way to reach it.
final class HostPresence: RemoteParticipants {
    let record: AttachedHostRecord
    private let attachment: Attachment
    private let hosts: AttachedHosts

    /// Attaches a host of `appID` in `role` to `home`.
    init(home: URL, appID: String, role: AttachedHostRole) throws {
        hosts = AttachedHosts(home: home)
        let id = "\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
        attachment = try hosts.attach(id: id)
        record = AttachedHostRecord(
            id: id, pid: getpid(), socketPath: "", appID: appID, attachedAt: Date(),
            apiVersion: AttachedHostRecord.noControlSocket, role: role)
        do {
            try attachment.publish(record)
        } catch {
            attachment.detach()
            throw error
        }
    }

    func prepare(_ change: HomeChange) throws -> PreparedHomeChange {
        let others = try hosts.live().filter { $0.id != record.id }.map(\.pid)
        if !others.isEmpty { throw HostError.cannotReachRunningHosts(pids: others) }
        return PreparedHomeChange(change: change, participants: [])
    }

    func finish(_ prepared: PreparedHomeChange, committed: Bool) -> [Int32] { [] }

    /// Detaches: the record and the liveness lock go.
    func leave() {
        attachment.detach()
    }
}
#endif
