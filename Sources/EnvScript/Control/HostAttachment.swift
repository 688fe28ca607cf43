import Containers
import Foundation
import Hummingbird

/// A host's attachment to its home: the control API served on a Unix domain socket in the home's
/// bookkeeping folder (Hummingbird 2), and the record by which other processes find it.
///
/// Started by ``EnvScriptHost`` when ``HostConfiguration/attachesToHome`` is set; stopped by
/// ``EnvScriptHost/close()``. The liveness lock is taken first and the record published last, so a
/// process that finds the record can reach the socket, and a host that dies — however it dies — is
/// seen as dead at once by the next process that looks.
final class HostAttachment: Sendable {
    /// The record other processes find the host by.
    let record: AttachedHostRecord
    private let attachment: Attachment
    private let server: BackgroundServer

    /// The version of the control API.
    static let apiVersion = 1

    /// Attaches `host` to its home and starts serving; returns once the socket listens.
    init(host: EnvScriptHost) throws {
        let hosts = AttachedHosts(home: host.configuration.home)
        let id = "\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
        attachment = try hosts.attach(id: id)
        let socketPath = hosts.socketPath(forID: id)
        do {
            // Refuses a folder another user could have put a socket in (the per-user folder in /tmp).
            try AttachedHosts.makeSocketFolder(for: socketPath)
        } catch {
            attachment.detach()
            throw error
        }
        unlink(socketPath)
        record = AttachedHostRecord(
            id: id, pid: getpid(), socketPath: socketPath, appID: host.appID, attachedAt: Date(),
            apiVersion: Self.apiVersion, role: host.configuration.role)

        let router = Router()
        router.add(middleware: ControlErrorMiddleware())
        ControlRoutes.register(on: router, host: host)
        do {
            server = try BackgroundServer(
                router: router, address: .unixDomainSocket(path: socketPath), serverName: "envscript",
                limits: host.configuration.controlServerLimits)
        } catch {
            attachment.detach()
            throw HostError.attachmentFailed(socket: socketPath, reason: error.reason)
        }
        // bind(2) left the socket's mode to the umask; its folder (700) kept others out meanwhile.
        guard chmod(socketPath, 0o600) == 0 else {
            let reason = String(cString: strerror(errno))
            server.stop()
            unlink(socketPath)
            attachment.detach()
            throw HostError.attachmentFailed(socket: socketPath, reason: "cannot make it private (chmod 600): \(reason)")
        }
        try attachment.publish(record)
    }

    /// Stops serving and detaches: the record, the socket and the liveness lock go.
    func stop() {
        // No new asker finds the host once the record and socket are gone; the server then finishes
        // the connections it has and stops.
        attachment.detach()
        server.stop()
    }
}
