package import Foundation

/// A client connection to a Unix domain socket, or to a TCP port of 127.0.0.1, that sends bytes exactly
/// as given — a request cut in the middle, say — and reads what comes back. For tests of what a server
/// does with a request under way, or with a connection that sends nothing; an HTTP client would never
/// leave one half sent.
package final class RawSocketConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to `port` of 127.0.0.1.
    package init(port: Int) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        descriptor = try Self.connected(to: address, family: AF_INET, naming: "127.0.0.1:\(port)")
    }

    /// Connects to the socket at `path`.
    package init(path: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Self.failure("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path.utf8)
            buffer[path.utf8.count] = 0
        }
        descriptor = try Self.connected(to: address, family: AF_UNIX, naming: path)
    }

    /// A stream socket of `family` connected to `address`; `name` says where, in an error.
    private static func connected<Address>(to address: Address, family: Int32, naming name: String) throws -> Int32 {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw failure("socket") }
        let connected = withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard connected == 0 else {
            let error = failure("connect to \(name)")
            close(descriptor)
            throw error
        }
        return descriptor
    }

    deinit { close(descriptor) }

    /// Sends `text` as UTF-8, all of it.
    package func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Self.failure("send") }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Whether the server has closed the connection, looking without waiting: true once a read would
    /// report the end (data waiting to be read does not count).
    package var isClosedByPeer: Bool {
        var byte: UInt8 = 0
        let result = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return result == 0
    }

    /// Whether everything sent so far has been read by the server's process (not just delivered to
    /// its socket), as the kernel counts it (`SIOCOUTQ`); meaningful for a Unix domain socket, where
    /// what is sent stays charged to this end until the server reads it. Stays true until more is sent.
    package var isAllSentReadByPeer: Bool {
        var unread: Int32 = 0
        // SIOCOUTQ, which is TIOCOUTQ's number.
        guard ioctl(descriptor, UInt(TIOCOUTQ), &unread) == 0 else { return false }
        return unread == 0
    }

    /// Sends one byte every 200 ms — a client that is never done — until the server closes the
    /// connection or `limit` passes; returns how long the server took to close it, or nil if it did not.
    package func dripUntilClosed(for limit: Duration) async throws -> Duration? {
        let started = ContinuousClock.now
        while true {
            // Looked at once more after the limit: on a loaded machine a sleep may end far past it.
            let pastTheLimit = ContinuousClock.now - started >= limit
            if isClosedByPeer || (try? send("a")) == nil { return ContinuousClock.now - started }
            if pastTheLimit { return nil }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Reads until the server closes the connection or `timeout` passes; returns what came.
    package func readToEnd(timeout: TimeInterval) -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    private static func failure(_ what: String) -> NSError {
        NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(errno)))"])
    }
}
