import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the remote provider's tests: one thread, one request per
/// connection, answers chosen by a handler — including never answering, to provoke a timeout.
final class TestHTTPServer: Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        /// Header names lower-cased.
        var headers: [String: String]
    }

    enum Response: Sendable {
        case respond(status: Int, headers: [String: String], body: Data)
        /// Keep the connection open and never answer.
        case hang
    }

    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    let port: UInt16
    private let listener: Int32
    private let handler: Locked<@Sendable (Request) -> Response>
    private let state = Locked<(requests: [Request], hanging: [Int32])>(([], []))
    private let finished = DispatchSemaphore(value: 0)

    init(handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = Locked(handler)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SetupError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw SetupError(description: "bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/tweaks.json")! }

    /// Every request received so far.
    var requests: [Request] { state.withLock { $0.requests } }

    /// Replaces the handler for the next requests.
    func respond(_ handler: @escaping @Sendable (Request) -> Response) {
        self.handler.withLock { $0 = handler }
    }

    /// Stops accepting, closes hanging connections and waits for the server thread to end.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        finished.wait()
        let hanging = state.withLock { state in
            defer { state.hanging = [] }
            return state.hanging
        }
        for fd in hanging { close(fd) }
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            guard let request = readRequest(client) else {
                close(client)
                continue
            }
            state.withLock { $0.requests.append(request) }
            switch handler.withLock({ $0 })(request) {
            case .hang:
                state.withLock { $0.hanging.append(client) }
            case .respond(let status, let headers, let body):
                var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : status == 304 ? "Not Modified" : "Status")\r\n"
                head += "Content-Length: \(status == 304 ? 0 : body.count)\r\nConnection: close\r\n"
                for (name, value) in headers { head += "\(name): \(value)\r\n" }
                head += "\r\n"
                var bytes = Array(head.utf8)
                if status != 304 { bytes += body }
                var offset = 0
                while offset < bytes.count {
                    let sent = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent <= 0 { break }
                    offset += sent
                }
                close(client)
            }
        }
    }

    private func readRequest(_ fd: Int32) -> Request? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while received.firstRange(of: end) == nil {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { return nil }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
    }
}
