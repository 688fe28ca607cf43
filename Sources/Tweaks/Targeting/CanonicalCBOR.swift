/// Writes a value in canonical CBOR (RFC 7049 §3.9), the bytes flagd's `fractional` hashes so that every
/// implementation buckets a value alike: integers and lengths in their shortest form, map keys sorted
/// by the length of their encoding and then by its bytes, and a number that is not a whole one in the
/// shortest float (half, single, double) that holds it exactly. A whole number in the range of a 64-bit
/// integer is written as an integer, whatever its JSON spelling (`1.0` as `1`, `-0.0` as `0`).
enum CanonicalCBOR {
    /// The encoding of `value`.
    static func encode(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        append(value, to: &bytes)
        return bytes
    }

    /// Appends the encoding of `value` to `bytes`.
    static func append(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(0xf6)
        case .bool(let flag): bytes.append(flag ? 0xf5 : 0xf4)
        case .double(let number): appendNumber(number, to: &bytes)
        case .int(let number): appendNumber(Double(number), to: &bytes)
        case .string(let text): appendString(text, to: &bytes)
        case .array(let elements):
            appendHead(major: 4, elements.count, to: &bytes)
            for element in elements { append(element, to: &bytes) }
        case .object(let fields):
            appendHead(major: 5, fields.count, to: &bytes)
            let encoded = fields.map { (key: encodedString($0.key), value: $0.value) }
                .sorted { left, right in
                    left.key.count != right.key.count ? left.key.count < right.key.count : left.key.lexicographicallyPrecedes(right.key)
                }
            for field in encoded {
                bytes.append(contentsOf: field.key)
                append(field.value, to: &bytes)
            }
        }
    }

    /// Appends a text string.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = text.utf8
        appendHead(major: 3, utf8.count, to: &bytes)
        bytes.append(contentsOf: utf8)
    }

    /// Appends an array's head; its `count` elements follow.
    static func appendArrayHead(count: Int, to bytes: inout [UInt8]) {
        appendHead(major: 4, count, to: &bytes)
    }

    private static func encodedString(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendString(text, to: &bytes)
        return bytes
    }

    private static func appendHead(major: UInt8, _ argument: Int, to bytes: inout [UInt8]) {
        appendHead(major: major, UInt64(argument), to: &bytes)
    }

    private static func appendHead(major: UInt8, _ argument: UInt64, to bytes: inout [UInt8]) {
        let tag = major << 5
        switch argument {
        case 0..<24:
            bytes.append(tag | UInt8(argument))
        case 24..<0x100:
            bytes.append(tag | 24)
            bytes.append(UInt8(argument))
        case 0x100..<0x1_0000:
            bytes.append(tag | 25)
            appendBigEndian(UInt16(argument), to: &bytes)
        case 0x1_0000..<0x1_0000_0000:
            bytes.append(tag | 26)
            appendBigEndian(UInt32(argument), to: &bytes)
        default:
            bytes.append(tag | 27)
            appendBigEndian(argument, to: &bytes)
        }
    }

    private static func appendNumber(_ number: Double, to bytes: inout [UInt8]) {
        // Whole numbers in [-2^63, 2^64) are integers (flagd normalises numbers so before encoding).
        if number.rounded() == number, number >= -9_223_372_036_854_775_808.0, number < 18_446_744_073_709_551_616.0 {
            if number >= 0 {
                appendHead(major: 0, UInt64(number), to: &bytes)
            } else {
                // -1 - n for major type 1; n = -1 - number, computed in unsigned arithmetic.
                let magnitude = UInt64(-(number + 1))
                appendHead(major: 1, magnitude, to: &bytes)
            }
            return
        }
        if number.isNaN {
            bytes.append(contentsOf: [0xf9, 0x7e, 0x00])
        } else if number.isInfinite {
            bytes.append(contentsOf: [0xf9, number > 0 ? 0x7c : 0xfc, 0x00])
        } else if let single = Float(exactly: number) {
            if let half = shortestHalf(single) {
                bytes.append(0xf9)
                appendBigEndian(half, to: &bytes)
            } else {
                bytes.append(0xfa)
                appendBigEndian(single.bitPattern, to: &bytes)
            }
        } else {
            bytes.append(0xfb)
            appendBigEndian(number.bitPattern, to: &bytes)
        }
    }

    /// The IEEE half-precision bits of `value` when a half holds it exactly.
    private static func shortestHalf(_ value: Float) -> UInt16? {
        #if arch(x86_64) || arch(arm64)
        if let half = Float16(exactly: value) { return half.bitPattern }
        return nil
        #else
        return nil
        #endif
    }

    private static func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        var big = value.bigEndian
        withUnsafeBytes(of: &big) { bytes.append(contentsOf: $0) }
    }
}
