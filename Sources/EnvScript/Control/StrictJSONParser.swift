import Foundation

/// Reads a request body as JSON exactly as RFC 8259 writes it, straight into ``ScriptValue``s, in one
/// pass whose cost grows with the body's length and nothing else.
///
/// Foundation's readers are not used for request bodies: they accept what JSON does not (a trailing
/// comma, `{"name": "x",}`), and reading their result as `ScriptValue`s through `Decodable` tries each
/// kind in turn at every level, each failed try costing as much as the depth — a 1 KiB body nested
/// 500 levels deep took seconds of CPU while the requests behind it waited.
///
/// Numbers read as ``ScriptValue`` always has: an integral number within `Int`'s range (`3`, `3.0`,
/// `3e0`) is an integer, any other a double; `{"$float": "3"}` is the double 3. A key given twice, a
/// lone UTF-16 surrogate in an escape and a number too large for a double are refused, as is nesting
/// deeper than ``maximumDepth``.
package struct StrictJSONParser {
    /// The deepest nesting of arrays and objects read.
    package static let maximumDepth = 512

    /// Why a text is not JSON, and where.
    package struct Failure: Error, CustomStringConvertible {
        /// The offset of the byte at fault, from 0.
        package let offset: Int
        /// What is wrong there.
        package let reason: String

        package var description: String { "\(reason) at byte \(offset + 1)" }
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The value `data` holds: one JSON value, with white space around it only.
    ///
    /// - Throws: ``Failure`` naming what is wrong and where.
    package static func parse(_ data: Data) throws(Failure) -> ScriptValue {
        var parser = StrictJSONParser(Array(data))
        parser.skipWhiteSpace()
        let value = try parser.value(depth: 1)
        parser.skipWhiteSpace()
        guard parser.index == parser.bytes.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    private func failure(_ reason: String) -> Failure {
        Failure(offset: index, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhiteSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value(depth: Int) throws(Failure) -> ScriptValue {
        guard let byte = current else { throw failure("the text ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character '\(Self.shown(byte))' where a value was expected")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw failure("unexpected text where a value was expected (did you mean \(word)?)")
        }
        index += expected.count
    }

    private mutating func enter(_ depth: Int) throws(Failure) {
        guard depth <= Self.maximumDepth else {
            throw failure("arrays and objects are nested deeper than \(Self.maximumDepth) levels")
        }
        index += 1
        skipWhiteSpace()
    }

    private mutating func array(depth: Int) throws(Failure) -> ScriptValue {
        try enter(depth)
        var items: [ScriptValue] = []
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipWhiteSpace()
            switch current {
            case UInt8(ascii: ",")?:
                index += 1
                skipWhiteSpace()
                if current == UInt8(ascii: "]") { throw failure("a comma before ']': JSON has no trailing commas") }
            case UInt8(ascii: "]")?:
                index += 1
                return .array(items)
            default:
                throw failure("expected ',' or ']' after an item of an array")
            }
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> ScriptValue {
        try enter(depth)
        var fields: [String: ScriptValue] = [:]
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw failure("expected a field name in double quotes") }
            let keyOffset = index
            let key = try string()
            skipWhiteSpace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after the field name \"\(key)\"") }
            index += 1
            skipWhiteSpace()
            let item = try value(depth: depth + 1)
            guard fields.updateValue(item, forKey: key) == nil else {
                throw Failure(offset: keyOffset, reason: "the field \"\(key)\" appears twice in one object")
            }
            skipWhiteSpace()
            switch current {
            case UInt8(ascii: ",")?:
                index += 1
                skipWhiteSpace()
                if current == UInt8(ascii: "}") { throw failure("a comma before '}': JSON has no trailing commas") }
            case UInt8(ascii: "}")?:
                index += 1
                return Self.floatMarked(fields) ?? .object(fields)
            default:
                throw failure("expected ',' or '}' after a field of an object")
            }
        }
    }

    /// The double that `{"$float": "text"}` writes (see ``ScriptValue``), or nil for any other object.
    private static func floatMarked(_ fields: [String: ScriptValue]) -> ScriptValue? {
        guard fields.count == 1, case .string(let text)? = fields[ScriptValue.floatMarker], let number = Double(text) else {
            return nil
        }
        return .double(number)
    }

    private mutating func string() throws(Failure) -> String {
        index += 1 // the opening quote
        var text: [UInt8] = []
        var runStart = index
        while true {
            guard let byte = current else { throw failure("a string is not closed with '\"'") }
            switch byte {
            case UInt8(ascii: "\""):
                text += bytes[runStart..<index]
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                text += bytes[runStart..<index]
                try escape(into: &text)
                runStart = index
            case 0..<0x20:
                throw failure("a control character (U+\(Self.hex(UInt32(byte)))) inside a string; write it as an escape such as \\n or \\u00\(Self.hex(UInt32(byte)).suffix(2))")
            default:
                index += 1
            }
        }
    }

    private mutating func escape(into text: inout [UInt8]) throws(Failure) {
        index += 1 // the backslash
        guard let byte = current else { throw failure("a string ends inside an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure("a \\u escape of a high surrogate not followed by its low surrogate")
                }
                index += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a \\u escape of a high surrogate not followed by its low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw failure("a \\u escape of a low surrogate with no high surrogate before it")
            }
            text += Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            index -= 1
            throw failure("an unknown escape '\\\(Self.shown(byte))' in a string")
        }
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("a \\u escape needs four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(Failure) -> ScriptValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, Self.isDigit(first) else { throw failure("a '-' not followed by a digit") }
        index += 1
        if first == UInt8(ascii: "0"), let next = current, Self.isDigit(next) {
            throw failure("a number with a leading zero")
        }
        skipDigits()
        var isIntegral = true
        if current == UInt8(ascii: ".") {
            isIntegral = false
            index += 1
            guard let digit = current, Self.isDigit(digit) else { throw failure("a '.' not followed by a digit") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isIntegral = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, Self.isDigit(digit) else { throw failure("an exponent with no digits") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isIntegral, let integer = Int(text) { return .int(integer) }
        guard let number = Double(text), number.isFinite else {
            throw Failure(offset: start, reason: "the number \(text) is too large")
        }
        if number == number.rounded(), number >= -0x1p63, number < 0x1p63 { return .int(Int(number)) }
        return .double(number)
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `byte` as shown in a message: itself when printable ASCII, else its code.
    private static func shown(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
