/// Splitting paths the way the kernel does.
package enum PathComponents {
    /// The components of `path`, split at every `/` byte.
    ///
    /// Splitting a `String` at the `Character` "/" misses a slash that a combining mark follows (the
    /// two make one Character), where the kernel splits at every `/` byte: `a/../\u{301}x` would read
    /// as two components, neither of them `..`, and a check made that way could be walked around.
    package static func of(_ path: String, omittingEmpty: Bool = false) -> [String] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: omittingEmpty)
            .map { String(decoding: $0, as: UTF8.self) }
    }
}
