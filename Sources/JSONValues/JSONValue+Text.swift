package import Foundation

extension JSONValue: CustomStringConvertible {
    /// The value as it would be written in JSON on one line, object fields sorted by name (strings
    /// quoted without escapes, for messages; ``jsonText`` is exact JSON).
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    /// The value as exact JSON on one line: a double keeps a fraction or an exponent (`2.0`, `1e+20`)
    /// so that it reads back as a double, object fields are sorted by name. JSON has no infinity or NaN;
    /// they are written `null`.
    public var jsonText: String {
        var text = ""
        writeJSON(into: &text)
        return text
    }

    /// The value a JSON text holds, read by the strict scanner (one pass whose cost grows with the
    /// text's length only: no trailing comma, no key given twice, no lone surrogate, at most
    /// `JSONScanner.maximumDepth` levels), numbers by how they are written (see ``JSONValue``).
    ///
    /// - Throws: the scanner's error, naming what is wrong and its line and column.
    package init(jsonText data: Data) throws(JSONScanner.SyntaxError) {
        self.init(try JSONScanner.parse(data))
    }

    /// The value of a parsed JSON node.
    package init(_ node: JSONScanner.Node) {
        switch node.value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(JSONValue.init))
        case .object(let members):
            var fields: [String: JSONValue] = [:]
            fields.reserveCapacity(members.count)
            for member in members { fields[member.key] = JSONValue(member.node) }
            self = .object(fields)
        }
    }

    /// Appends ``jsonText`` to `text`.
    package func writeJSON(into text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .int(let number): text += String(number)
        // Swift's shortest round-trip form always has a "." or an "e" for a finite double.
        case .double(let number): text += number.isFinite ? "\(number)" : "null"
        case .string(let string): Self.writeJSONString(string, into: &text)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                item.writeJSON(into: &text)
            }
            text += "]"
        case .object(let fields):
            text += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                Self.writeJSONString(key, into: &text)
                text += ":"
                fields[key]!.writeJSON(into: &text)
            }
            text += "}"
        }
    }

    /// Appends `string` as a JSON string: quotes, backslashes and control characters escaped, the rest
    /// as UTF-8.
    package static func writeJSONString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
