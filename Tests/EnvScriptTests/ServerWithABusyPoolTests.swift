import EnvScript
import Foundation
import Hummingbird
import Locking
import Testing
import TestSupport

/// A ``BackgroundServer`` starts, fails to bind and stops while every thread of Swift's cooperative pool is
/// taken and more work waits for one — an async app whose tasks block, or a test run. Each test queues more
/// tasks that wait on a gate than the pool has threads, makes its server call from a thread of its own,
/// and opens the gate only once the call returned (or after 20 seconds): a call that needed the pool would
/// wait behind those tasks until then. The tests are synchronous: they hold the pool thread they run on
/// and need no other (an async test would wait for the pool to resume it, however busy a test run keeps it).
/// The time limit is a whole run's: a test counts as started while it still waits for a pool thread.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ServerWithABusyPoolTests {
    /// Runs `call` on a thread of its own while the pool is blocked; the result, or nil when it had not
    /// returned within 20 seconds.
    private func whileThePoolIsBlocked<T: Sendable>(_ call: @escaping @Sendable () -> T) -> T? {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() } // each blocked task lets the next one go
        for _ in 0..<(ProcessInfo.processInfo.activeProcessorCount + 2) {
            Task.detached {
                gate.wait()
                gate.signal()
            }
        }
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = call()
            result.withLock { $0 = value }
            done.signal()
        }
        return done.wait(timeout: .now() + 20) == .success ? result.withLock { $0 } : nil
    }

    private static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("ping") { _, _ in "pong" }
        return router
    }

    @Test func aTakenPortIsReportedWithoutWaitingForThePool() throws {
        let first = try BackgroundServer(router: Self.router(), address: .hostname("127.0.0.1", port: 0), serverName: "test")
        defer { first.stop() }
        let port = try #require(first.port)
        let outcome = whileThePoolIsBlocked { () -> String in
            do {
                let second = try BackgroundServer(router: Self.router(), address: .hostname("127.0.0.1", port: port), serverName: "test")
                second.stop()
                return "bound"
            } catch {
                return "\(error)"
            }
        }
        let message = try #require(outcome, "binding a taken port did not return while the pool was busy")
        #expect(message.contains("cannot listen on") && message.contains("\(port)"), "\(message)")
    }

    @Test func aServerStartsAnswersAndStopsWithoutWaitingForThePool() throws {
        let outcome = whileThePoolIsBlocked { () -> String in
            do {
                let server = try BackgroundServer(router: Self.router(), address: .hostname("127.0.0.1", port: 0), serverName: "test")
                guard let port = server.port else { return "no port" }
                let connection = try RawSocketConnection(port: port)
                try connection.send("GET /ping HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                let answer = connection.readToEnd(timeout: 10)
                server.stop()
                let refused = (try? RawSocketConnection(port: port)) == nil
                let headers = ["\r\nDate: ", " GMT\r\n", "\r\nServer: test\r\n"]
                let answered = answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("pong")
                    && headers.allSatisfy(answer.contains) ? "answered" : answer
                return "\(answered), refused: \(refused), cut short: \(server.wasCutShort)"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome == "answered, refused: true, cut short: false")
    }

    /// RFC 9110's example, whatever the process's locale.
    @Test func theDateHeaderIsAnHTTPDate() {
        #expect(HTTPDateHeader.text(of: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDateHeader.text(of: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }
}
