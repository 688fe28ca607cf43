import Containers
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Locking

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
    private let server: Task<Void, Never>
    /// Runs the server; stopping asks it to shut down gracefully, so connections made meanwhile are
    /// finished properly instead of being torn down half-set-up.
    private let services: ServiceGroup
    private let stopped = DispatchSemaphore(value: 0)

    /// The version of the control API.
    static let apiVersion = 1
    /// Where the servers' tasks run, off Swift's cooperative pool (see ``EventLoopTaskExecutor``).
    private static let executor = EventLoopTaskExecutor()

    /// Attaches `host` to its home and starts serving; returns once the socket listens.
    init(host: EnvScriptHost) throws {
        let hosts = AttachedHosts(home: host.configuration.home)
        let id = "\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
        attachment = try hosts.attach(id: id)
        let socketPath = hosts.socketPath(forID: id)
        try FileManager.default.createDirectory(
            atPath: (socketPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        unlink(socketPath)
        record = AttachedHostRecord(
            id: id, pid: getpid(), socketPath: socketPath, appID: host.appID, attachedAt: Date(),
            apiVersion: Self.apiVersion)

        let router = Router()
        router.add(middleware: ControlErrorMiddleware())
        ControlRoutes.register(on: router, host: host)
        var logger = Logger(label: "envscript.control")
        logger.logLevel = .critical // a cancelled connection at shutdown is not worth a message
        let ready = DispatchSemaphore(value: 0)
        let failure = Locked<(any Error)?>(nil)
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .unixDomainSocket(path: socketPath), serverName: "envscript"),
            onServerRunning: { _ in ready.signal() },
            logger: logger)
        let stopped = stopped
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(services: [application], logger: logger))
        self.services = services
        server = Task(executorPreference: Self.executor) {
            do {
                try await services.run()
            } catch {
                failure.withLock { $0 = error }
            }
            ready.signal()
            stopped.signal()
        }
        ready.wait()
        if let error = failure.withLock({ $0 }) {
            attachment.detach()
            throw HostError.attachmentFailed(socket: socketPath, reason: "\(error)")
        }
        try attachment.publish(record)
    }

    /// Stops serving and detaches: the record, the socket and the liveness lock go.
    func stop() {
        // No new asker finds the host once the record and socket are gone; the server then finishes
        // the connections it has and stops.
        attachment.detach()
        let services = services
        Task(executorPreference: Self.executor) { await services.triggerGracefulShutdown() }
        if stopped.wait(timeout: .now() + 5) == .timedOut {
            server.cancel()
            _ = stopped.wait(timeout: .now() + 5)
        }
    }
}
