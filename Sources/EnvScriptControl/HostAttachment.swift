import Containers
import EnvScriptOperations
import Foundation
import Hummingbird
import Locking

/// A host's attachment to its home: the control API served on a Unix domain socket in the home's
/// bookkeeping folder (Hummingbird 2), and the record by which other processes find it.
///
/// Started by `EnvScriptHost` when `HostConfiguration/attachesToHome` is set, in two steps that
/// frame the host's opening: ``begin(home:limits:)`` takes the liveness lock and, on a thread of its
/// own, makes the routes and starts the server while the host opens its Lua state and engines (on a
/// machine with a core to spare, most of the attachment's cost is off the way to the first flag);
/// ``init(completing:host:)`` then gives the routes their host, waits until the socket listens and
/// publishes the record. The liveness lock is taken first and the record published last, so a process
/// that finds the record can reach the socket and its host, and a host that dies — however it dies — is
/// seen as dead at once by the next process that looks. Stopped by `EnvScriptHost/close()`.
final class HostAttachment: Sendable {
    /// The record other processes find the host by.
    let record: AttachedHostRecord
    private let attachment: Attachment
    private let server: BackgroundServer

    /// The version of the control API.
    static let apiVersion = 1

    /// An attachment under way: the liveness lock is held, the server is being started.
    final class Starting: Sendable {
        fileprivate let record: AttachedHostRecord
        fileprivate let attachment: Attachment
        fileprivate let reference = HostReference()
        private let started = DispatchSemaphore(value: 0)
        /// The server listening on a private socket and the record ready to publish, or why not.
        private let outcome = Locked<Result<(BackgroundServer, Attachment.PreparedRecord), HostError>?>(nil)

        fileprivate init(record: AttachedHostRecord, attachment: Attachment) {
            self.record = record
            self.attachment = attachment
        }

        /// Makes the routes, starts the server, makes the socket private and prepares the record, on a
        /// thread of its own.
        fileprivate func startServing(limits: ServerLimits) {
            Thread.detachNewThread { [self] in
                let router = Router()
                router.add(middleware: ControlErrorMiddleware())
                let routes = ControlRoutes.register(on: router, host: ControlHost(reference))
                let outcome = serve(router, limits: limits)
                self.outcome.withLock { $0 = outcome }
                started.signal()
                // Off the host's way: the answer 405 needs them only once the record is out.
                routes.take()
            }
        }

        private func serve(
            _ router: Router<BasicRequestContext>, limits: ServerLimits
        ) -> Result<(BackgroundServer, Attachment.PreparedRecord), HostError> {
            let socketPath = record.socketPath
            let server: BackgroundServer
            do {
                server = try BackgroundServer(
                    router: router, address: .unixDomainSocket(path: socketPath), serverName: "envscript", limits: limits)
            } catch {
                return .failure(.attachmentFailed(socket: socketPath, reason: error.reason))
            }
            // bind(2) left the socket's mode to the umask; its folder (700) kept others out meanwhile.
            guard chmod(socketPath, 0o600) == 0 else {
                let reason = String(cString: strerror(errno))
                server.stop()
                return .failure(.attachmentFailed(socket: socketPath, reason: "cannot make it private (chmod 600): \(reason)"))
            }
            do {
                return .success((server, try attachment.prepare(record)))
            } catch {
                server.stop()
                return .failure(.attachmentFailed(socket: socketPath, reason: "cannot prepare its record: \(error)"))
            }
        }

        /// What the thread made, once it is done.
        fileprivate func served() -> Result<(BackgroundServer, Attachment.PreparedRecord), HostError> {
            if let known = outcome.withLock({ $0 }) { return known }
            started.wait()
            started.signal()
            return outcome.withLock { $0! }
        }

        /// Undoes the attachment of a host that did not open: the server stops, the socket and the
        /// liveness lock go.
        func abandon() {
            if case .success(let (server, _)) = served() { server.stop() }
            unlink(record.socketPath)
            attachment.detach()
        }
    }

    /// Takes the liveness lock of a new attachment to `home` for a host of `appID` in `role`, and starts
    /// serving the control API on a thread of its own; finish with ``init(completing:host:)``, or
    /// ``Starting/abandon()``.
    ///
    /// - Throws: `Containers/ContainerError` when the lock cannot be taken or the socket's folder is unsafe.
    static func begin(home: URL, appID: String, role: AttachedHostRole, limits: ServerLimits) throws -> Starting {
        let hosts = AttachedHosts(home: home)
        let id = "\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
        let attachment = try hosts.attach(id: id)
        let socketPath = hosts.socketPath(forID: id)
        do {
            // Refuses a folder another user could have put a socket in (the per-user folder in /tmp).
            try AttachedHosts.makeSocketFolder(for: socketPath)
        } catch {
            attachment.detach()
            throw error
        }
        unlink(socketPath)
        let record = AttachedHostRecord(
            id: id, pid: getpid(), socketPath: socketPath, appID: appID, attachedAt: Date(),
            apiVersion: Self.apiVersion, role: role)
        let starting = Starting(record: record, attachment: attachment)
        starting.startServing(limits: limits)
        return starting
    }

    /// Gives the routes `host`, waits until the socket listens and publishes the record.
    ///
    /// - Throws: ``HostError/Code/attachmentFailed``, having undone the attachment.
    init(completing starting: Starting, host: any ControlledHost) throws {
        starting.reference.set(host)
        let prepared: Attachment.PreparedRecord
        switch starting.served() {
        case .success(let (server, record)): (self.server, prepared) = (server, record)
        case .failure(let error):
            starting.abandon()
            throw error
        }
        attachment = starting.attachment
        record = starting.record
        do {
            try attachment.publish(prepared)
        } catch {
            starting.abandon()
            throw error
        }
    }

    /// Stops serving and detaches: the record, the socket and the liveness lock go.
    func stop() {
        // No new asker finds the host once the record and socket are gone; the server then finishes
        // the connections it has and stops.
        attachment.detach()
        server.stop()
    }
}
