package import Foundation

/// A small JSON parser that remembers where each value and key starts.
///
/// Foundation's `JSONSerialization` reports only a character offset and, once parsed, forgets positions
/// and blurs `true` with `1`; tweak files need both errors and shape problems reported by line and column,
/// and Booleans kept apart from numbers. Recursion is bounded so hostile input fails instead of crashing.
/// Strict RFC 8259 (no trailing comma, no duplicate key, no lone surrogate, no leading zero), in one pass
/// whose cost grows with the text's length only; the control API reads request bodies with it too.
package struct JSONScanner {
    /// A line and column, both counted from 1; columns count bytes.
    package struct Position: Sendable, Hashable {
        /// The line, from 1.
        package var line: Int
        /// The column in bytes, from 1.
        package var column: Int
    }

    /// A parsed value and where it starts.
    package indirect enum Value {
        case object([Member])
        case array([Node])
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)
        case null

        /// The JSON type's name, for messages.
        package var typeName: String {
            switch self {
            case .object: return "object"
            case .array: return "array"
            case .string: return "string"
            case .int: return "integer"
            case .double: return "number"
            case .bool: return "Boolean"
            case .null: return "null"
            }
        }
    }

    /// A value and where it starts.
    package struct Node {
        /// The value.
        package var value: Value
        /// Where it starts.
        package var position: Position
    }

    /// A member of an object, in the order of the text.
    package struct Member {
        /// The key.
        package var key: String
        /// Where the key starts.
        package var keyPosition: Position
        /// The value.
        package var node: Node

        /// A member whose key starts at `keyPosition`.
        package init(key: String, keyPosition: Position, node: Node) {
            self.key = key
            self.keyPosition = keyPosition
            self.node = node
        }
    }

    /// A syntax error at a position.
    package struct SyntaxError: Error, CustomStringConvertible {
        /// Where.
        package var position: Position
        /// What is wrong there.
        package var message: String

        package var description: String { "\(message) at line \(position.line), column \(position.column)" }
    }

    /// The deepest nesting of arrays and objects read.
    package static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON document (a leading UTF-8 byte-order mark is allowed).
    package static func parse(_ data: Data) throws(SyntaxError) -> Node {
        var scanner = JSONScanner(bytes: [UInt8](data))
        if scanner.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            scanner.index = 3
            scanner.lineStart = 3
        }
        scanner.skipWhitespace()
        let node = try scanner.parseValue(depth: 0)
        scanner.skipWhitespace()
        if scanner.index < scanner.bytes.count {
            throw scanner.error("unexpected \(scanner.describeCurrent()) after the end of the document")
        }
        return node
    }

    private var position: Position { Position(line: line, column: index - lineStart + 1) }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(position: position, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> Node {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        let start = position
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return Node(value: try parseObject(depth: depth), position: start)
        case UInt8(ascii: "["): return Node(value: try parseArray(depth: depth), position: start)
        case UInt8(ascii: "\""): return Node(value: .string(try parseString()), position: start)
        case UInt8(ascii: "t"): try expectWord("true"); return Node(value: .bool(true), position: start)
        case UInt8(ascii: "f"): try expectWord("false"); return Node(value: .bool(false), position: start)
        case UInt8(ascii: "n"): try expectWord("null"); return Node(value: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return Node(value: try parseNumber(), position: start)
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(SyntaxError) {
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw error("invalid literal, expected '\(word)'")
            }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> Value {
        index += 1  // {
        var members: [Member] = []
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a quoted key")
            }
            let keyPosition = position
            let key = try parseString()
            guard seen.insert(key).inserted else {
                throw SyntaxError(position: keyPosition, message: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let node = try parseValue(depth: depth + 1)
            members.append(Member(key: key, keyPosition: keyPosition, node: node))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                try refuseTrailingComma(before: "}")
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> Value {
        index += 1  // [
        var elements: [Node] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                try refuseTrailingComma(before: "]")
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    /// After a comma: refuses `closing` coming next, saying so (JSON has no trailing commas, which
    /// JavaScript and many editors allow).
    private mutating func refuseTrailingComma(before closing: Character) throws(SyntaxError) {
        let comma = Position(line: line, column: index - lineStart)
        skipWhitespace()
        if index < bytes.count, bytes[index] == closing.asciiValue {
            throw SyntaxError(position: comma, message: "trailing comma before '\(closing)'; JSON allows none, remove it")
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        let start = position
        index += 1  // opening quote
        var buffer: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw SyntaxError(position: start, message: "string is not valid UTF-8; save the file as UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid UTF-16 surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                    buffer.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
                default:
                    index -= 1
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            default:
                guard byte >= 0x20 else { throw error("control character in string; escape it (\\n, \\t, ...)") }
                buffer.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unterminated \\u escape") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> Value {
        let start = index
        let startPosition = position
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number, expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number, leading zeros are not allowed") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number, expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number, expected an exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw error("invalid number '\(text)'") }
        guard value.isFinite else {
            throw SyntaxError(position: startPosition, message: "number \(text) is too large for a double (at most about 1.8e308)")
        }
        return .double(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
