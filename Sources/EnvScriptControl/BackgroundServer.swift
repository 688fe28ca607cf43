import Foundation
package import Hummingbird
package import HummingbirdCore
import Logging
import Locking
import NIOCore
import NIOHTTP1
import NIOPosix

/// A Hummingbird server run from synchronous code: the initialiser returns once the server listens, and
/// ``stop()`` shuts it down gracefully — returning once it has stopped when called from synchronous
/// code, at once when called from async code.
///
/// Every task of the server — accepting, each connection, each request, the graceful shutdown — runs in
/// one structured task on a NIO event loop (`EventLoopTaskExecutor`), never on Swift's cooperative pool:
/// starting it, failing to bind and stopping it finish however busy that pool is (a test run, an async
/// app with every pool thread blocked). That is why it runs HummingbirdCore's `Server` itself rather than
/// a Hummingbird `Application`: the application's `ServiceGroup` cancels and shuts down through
/// unstructured tasks, which would queue on the pool behind all its other work.
/// Used for a host's control socket and for the control panel, each within its ``ServerLimits``.
package final class BackgroundServer: Sendable {
    /// The TCP port the server listens on; nil for a Unix domain socket.
    package let port: Int?
    private let server: Server<HTTP1Channel>
    private let serving: Task<Void, Never>
    private let stopped = DispatchSemaphore(value: 0)
    private let isStopping = Locked(false)
    private let cutShort = Locked(false)

    /// Whether ``stop()`` had to cancel the server because it had not stopped within its five seconds.
    package var wasCutShort: Bool { cutShort.withLock { $0 } }

    /// The event-loop thread every server of the process shares (a host's control socket, the panel),
    /// whatever the number of cores: NIO's default group — a thread per core — would add that many
    /// threads to every application that attaches a host. Nothing on it blocks: host work goes to
    /// ``BlockingWork``.
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// Where the servers' tasks run, off Swift's cooperative pool: on that thread.
    private static let executor = EventLoopTaskExecutor(loop: eventLoops.next())

    /// Starts serving `router` on `address` within `limits` and returns once the server listens.
    ///
    /// `showsToken`, given by a server that anyone on the machine may reach, tells whether a request
    /// carries the access token: connections are then kept by ``ConnectionRegistry``'s rules, so that
    /// those without it cannot hold the owner out. Without it, connections past the cap wait in the
    /// system's queue.
    ///
    /// - Throws: `BackgroundServerError` when the address cannot be bound.
    package init<Context: RequestContext>(
        router: Router<Context>, address: BindAddress, serverName: String, limits: ServerLimits = ServerLimits(),
        showsToken: (@Sendable (Request) -> Bool)? = nil
    ) throws(BackgroundServerError) where Context.Source == ApplicationRequestContextSource {
        var logger = Logger(label: "envscript.server")
        logger.logLevel = .critical // a cancelled connection at shutdown is not worth a message
        let requestTimeout = TimeAmount(limits.requestTimeout)
        let registry = showsToken.map { _ in
            ConnectionRegistry(cap: limits.connectionCap, unprovenLifetime: TimeAmount(limits.unprovenTimeout))
        }
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [MalformedRequestAnswer(), RequestDeadline(timeout: requestTimeout)]
                + (registry.map { [ConnectionGuard(registry: $0)] } ?? []),
            idleTimeout: TimeAmount(limits.idleTimeout))
        let proof = registry.flatMap { registry in
            showsToken.map { showsToken in { @Sendable (request: Request, channel: any Channel) in
                if showsToken(request) { registry.prove(channel) }
            } }
        }
        let channel = HTTP1Channel(
            responder: Self.responder(router.buildResponder(), serverName: serverName, logger: logger, proof: proof),
            configuration: http)
        let ready = DispatchSemaphore(value: 0)
        let failure = Locked<(any Error)?>(nil)
        let boundPort = Locked<Int?>(nil)
        let server = Server(
            childChannelSetup: channel,
            configuration: ServerConfiguration(
                address: address, serverName: serverName,
                // With a registry every connection is accepted, for it to choose which to close.
                availableConnectionsDelegate: registry == nil ? MaximumAvailableConnections(limits.connectionCap) : nil),
            onServerRunning: { channel in
                boundPort.withLock { $0 = channel.localAddress?.port }
                ready.signal()
            },
            eventLoopGroup: Self.eventLoops,
            logger: logger)
        self.server = server
        let stopped = stopped
        serving = Task(executorPreference: Self.executor) {
            do {
                try await server.run()
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

    /// What answers each request: `responder` with a context for the connection; an error it throws
    /// that is not an HTTP error becomes a bare 500; every answer carries `Date` and `Server`.
    private static func responder<Context: RequestContext>(
        _ responder: RouterResponder<Context>, serverName: String, logger: Logger,
        proof: (@Sendable (Request, any Channel) -> Void)?
    ) -> HTTPChannelHandler.Responder where Context.Source == ApplicationRequestContextSource {
        let date = HTTPDateHeader()
        return { request, writer, channel in
            proof?(request, channel)
            let context = Context(source: ApplicationRequestContextSource(channel: channel, logger: logger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPParserError {
                throw error
            } catch {
                response = Response(status: .internalServerError)
            }
            response.headers[.date] = date.now
            response.headers[.server] = serverName
            do {
                try await writer.write(response: response.head, body: response.body)
            } catch is HTTPParserError {
                // Thrown on, it would make the channel write a second answer (a 400); any other error
                // closes the connection.
                throw AnswerCutShort()
            }
        }
    }

    /// Stops serving: connections made meanwhile are finished, then the server stops. Waits up to five
    /// seconds for that, then cancels what is left. Calling it again does nothing.
    ///
    /// Called from async code it returns at once and the server finishes stopping in the background:
    /// the thread this call would block may be one of Swift's cooperative pool's few (two on a small
    /// machine), and a few hosts closed at once from tasks would each wait for their connections.
    package func stop() {
        let first = isStopping.withLock { isStopping in
            defer { isStopping = true }
            return !isStopping
        }
        guard first else { return }
        let server = server
        Task(executorPreference: Self.executor) { try? await server.shutdownGracefully() }
        let (serving, stopped, cutShort) = (serving, stopped, cutShort)
        let waitForTheEnd: @Sendable () -> Void = {
            if stopped.wait(timeout: .now() + 5) == .timedOut {
                cutShort.withLock { $0 = true }
                serving.cancel()
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

extension BackgroundServer {
    /// Stops serving as ``stop()`` does and returns once the server has stopped (or was cut short after
    /// five seconds), without blocking a thread of Swift's pool meanwhile: the wait is on a thread of its
    /// own. For a server that must be gone when the call returns (a test's), never by cancelling it: NIO
    /// traps on a connection accepted but not yet served when its serving task is cancelled.
    package func stopAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                self.stop()
                continuation.resume()
            }
        }
    }
}

/// A request whose body turned out malformed while its answer was being written: the connection closes.
private struct AnswerCutShort: Error {}

/// A server that could not start listening.
package struct BackgroundServerError: Error, CustomStringConvertible {
    /// The address it was to listen on.
    package let address: String
    /// Why it could not.
    package let reason: String

    package var description: String { "cannot listen on \(address): \(reason)" }
}
