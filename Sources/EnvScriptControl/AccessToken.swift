package import Hummingbird

/// The secret a server of EnvScript reachable over TCP asks of every request (the panel's, the OFREP
/// listener's), and how a request shows it.
package struct AccessToken: Sendable {
    /// The token's text.
    package let value: String

    package init(_ value: String) {
        self.value = value
    }

    /// A new random token: 32 bytes from the system's generator, in hex.
    package static func random() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        return AccessToken((0..<32).map { _ in
            String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator))
        }.joined())
    }

    /// Whether `candidate` is the token, compared in time that does not depend on where they differ.
    package func matches(_ candidate: Substring?) -> Bool {
        guard let candidate else { return false }
        let expected = Array(value.utf8), given = Array(candidate.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }

    /// Whether `request` carries the token as `Authorization: Bearer <token>`.
    package func isBearer(of request: Request) -> Bool {
        matches(Self.bearer(of: request))
    }

    /// The credentials of an `Authorization: Bearer …` header; the scheme's name in any case (RFC 9110).
    package static func bearer(of request: Request) -> Substring? {
        guard let value = request.headers[.authorization] else { return nil }
        let scheme = "bearer "
        guard value.count > scheme.count, value.prefix(scheme.count).lowercased() == scheme else { return nil }
        return value.dropFirst(scheme.count).drop { $0 == " " }
    }
}
