import Tweaks

/// Swift source text for values and prose: literals that compile to exactly the value read from the
/// tweaks file, and comment lines that cannot break out of their comment.
enum SwiftLiteral {
    /// The Swift type of a property holding `value`.
    static func typeName(of value: JSONValue) -> String {
        switch value {
        case .bool: return "Bool"
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .null, .array, .object: return "JSONValue"
        }
    }

    /// `value` as a literal of the type ``typeName(of:)`` names, or nil for a non-finite double.
    static func literal(_ value: JSONValue) -> String? {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number):
            guard number.isFinite else { return nil }
            // The shortest text that reads back as the same double; always has a '.' or an exponent.
            return "\(number)"
        case .string(let text): return string(text)
        case .array(let elements):
            let parts = elements.map(wrappedLiteral)
            guard !parts.contains(nil) else { return nil }
            return "[" + parts.map { $0! }.joined(separator: ", ") + "]"
        case .object(let fields):
            if fields.isEmpty { return "[:]" }
            let parts = fields.sorted { $0.key < $1.key }.map { name, field in
                wrappedLiteral(field).map { "\(string(name)): \($0)" }
            }
            guard !parts.contains(nil) else { return nil }
            return "[" + parts.map { $0! }.joined(separator: ", ") + "]"
        }
    }

    /// `value` inside an array or object literal: its literal wrapped in its case (`.int(2)`), or `.null`.
    private static func wrappedLiteral(_ value: JSONValue) -> String? {
        if case .null = value { return ".null" }
        return literal(value).map { ".\(value.typeName)(\($0))" }
    }

    /// `text` as a one-line string literal, every character that could end the literal, start an
    /// interpolation, or hide in an editor (controls, line and paragraph separators, bidirectional
    /// overrides, the byte-order mark) written as an escape.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if isInvisible(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `text` as lines to put after `///` or `//`: split at every line break, with invisible characters
    /// replaced by spaces so nothing can end the comment or reorder what is shown.
    static func commentLines(_ text: String) -> [String] {
        var cleaned = ""
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n" && previous == "\r" {
                continue  // CR LF is one break
            } else if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == "\u{85}" {
                cleaned.unicodeScalars.append("\n")
            } else if isInvisible(scalar) {
                cleaned.unicodeScalars.append(" ")
            } else {
                cleaned.unicodeScalars.append(scalar)
            }
        }
        return cleaned.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop(while: { $0 == " " }).reversed())
        }
    }

    /// `text` on one line, for `// MARK:` headers and the like.
    static func singleLine(_ text: String) -> String {
        commentLines(text).map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0 and C1 controls, DEL
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF: return true  // zero-width, separators, bidi
        default: return false
        }
    }
}

extension String {
    /// The text without leading and trailing spaces.
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
