/// Reads structured choices out of a fuzzer's bytes; past the end every read answers zero, so any input
/// is a complete program.
struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    var isExhausted: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A choice among `count` (at least 1) possibilities.
    mutating func choice(_ count: Int) -> Int { Int(byte()) % count }

    mutating func uint64() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) }
    }

    /// Up to `limit` bytes, the count first.
    mutating func bytes(upTo limit: Int) -> [UInt8] {
        (0..<choice(limit + 1)).map { _ in byte() }
    }
}
