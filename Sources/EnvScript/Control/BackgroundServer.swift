import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Locking
import NIOCore
import NIOPosix
import ServiceLifecycle

/// A Hummingbird server run from synchronous code: the initialiser returns once the server listens, and
/// ``stop()`` shuts it down gracefully — returning once it has stopped when called from synchronous
/// code, at once when called from async code.
///
/// The server's own tasks run on a NIO event loop (`EventLoopTaskExecutor`), off Swift's cooperative
/// pool, so starting it from a thread of that pool (a test, an async app) cannot starve it. Hummingbird
/// starts its graceful shutdown in an unstructured task, which does need that pool: hence ``stop()``
/// never blocks a thread of it.
/// Used for a host's control socket and for the control panel, each within its ``ServerLimits``.
public final class BackgroundServer: Sendable {
    /// The TCP port the server listens on; nil for a Unix domain socket.
    public let port: Int?
    private let services: ServiceGroup
    private let server: Task<Void, Never>
    private let stopped = DispatchSemaphore(value: 0)
    private let isStopping = Locked(false)

    /// The two event-loop threads every server of the process shares (a host's control socket, the
    /// panel), whatever the number of cores: NIO's default group — a thread per core — would add that
    /// many threads to every application that attaches a host. (Two rather than one is not settled: the
    /// whole test suite's 340 s with one against 182 s with two was measured while its time varied from
    /// 183 to 336 s for another reason — children spinning at full CPU — and the loops were never seen
    /// blocked; #33 measures it again once the server's start and stop no longer wait on the pool.)
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    /// Where the servers' tasks run, off Swift's cooperative pool: on one of those threads.
    private static let executor = EventLoopTaskExecutor(loop: eventLoops.next())

    /// Starts serving `router` on `address` within `limits` and returns once the server listens.
    ///
    /// - Throws: ``BackgroundServerError`` when the address cannot be bound.
    public init<Context: RequestContext>(
        router: Router<Context>, address: BindAddress, serverName: String, limits: ServerLimits = ServerLimits()
    ) throws(BackgroundServerError) where Context.Source == ApplicationRequestContextSource {
        var logger = Logger(label: "envscript.server")
        logger.logLevel = .critical // a cancelled connection at shutdown is not worth a message
        let ready = DispatchSemaphore(value: 0)
        let failure = Locked<(any Error)?>(nil)
        let boundPort = Locked<Int?>(nil)
        let requestTimeout = TimeAmount(limits.requestTimeout)
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [MalformedRequestAnswer(), RequestDeadline(timeout: requestTimeout)],
            idleTimeout: TimeAmount(limits.idleTimeout))
        let application = Application(
            router: router,
            server: .http1(configuration: http),
            configuration: ApplicationConfiguration(
                address: address, serverName: serverName,
                availableConnectionsDelegate: MaximumAvailableConnections(limits.connectionCap)),
            onServerRunning: { channel in
                boundPort.withLock { $0 = channel.localAddress?.port }
                ready.signal()
            },
            eventLoopGroupProvider: .shared(Self.eventLoops),
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
        port = boundPort.withLock { $0 }
        if let error = failure.withLock({ $0 }) {
            throw BackgroundServerError(address: "\(address)", reason: "\(error)")
        }
    }

    /// Stops serving: connections made meanwhile are finished, then the server stops. Waits up to five
    /// seconds for that, then cancels what is left. Calling it again does nothing.
    ///
    /// Called from async code it returns at once and the server finishes stopping in the background:
    /// Hummingbird runs its graceful shutdown in a task of Swift's cooperative pool, and the thread this
    /// call would block may be one of that pool's few (two on a small machine) — a few hosts closed at
    /// once from tasks would each wait out the five seconds.
    public func stop() {
        let first = isStopping.withLock { isStopping in
            defer { isStopping = true }
            return !isStopping
        }
        guard first else { return }
        let services = services
        Task(executorPreference: Self.executor) { await services.triggerGracefulShutdown() }
        let (server, stopped) = (server, stopped)
        let waitForTheEnd: @Sendable () -> Void = {
            if stopped.wait(timeout: .now() + 5) == .timedOut {
                server.cancel()
                _ = stopped.wait(timeout: .now() + 5)
            }
        }
        if withUnsafeCurrentTask(body: { $0 != nil }) {
            Thread.detachNewThread(waitForTheEnd)
        } else {
            waitForTheEnd()
        }
    }
}

/// A server that could not start listening.
public struct BackgroundServerError: Error, CustomStringConvertible {
    /// The address it was to listen on.
    public let address: String
    /// Why it could not.
    public let reason: String

    public var description: String { "cannot listen on \(address): \(reason)" }
}
