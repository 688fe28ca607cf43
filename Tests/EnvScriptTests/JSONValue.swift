import Foundation

/// Any JSON value, read strictly (a Boolean never reads as a number), for checking answers of the
/// control API against its OpenAPI document.
enum JSONValue: Equatable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let value = try? single.decode(Bool.self) { self = .bool(value) }
        else if let value = try? single.decode(Int.self) { self = .int(value) }
        else if let value = try? single.decode(Double.self) { self = .double(value) }
        else if let value = try? single.decode(String.self) { self = .string(value) }
        else if let value = try? single.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try single.decode([String: JSONValue].self)) }
    }

    /// Parses `data`, failing with the text when it is not JSON.
    static func parse(_ data: Data) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw JSONTextError(text: String(decoding: data, as: UTF8.self))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] } else { return nil }
    }

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var int: Int? { if case .int(let number) = self { number } else { nil } }
    var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    var array: [JSONValue]? { if case .array(let values) = self { values } else { nil } }
    var object: [String: JSONValue]? { if case .object(let fields) = self { fields } else { nil } }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "\(flag)"
        case .int(let number): return "\(number)"
        case .double(let number): return "\(number)"
        case .string(let text): return text.debugDescription
        case .array(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + fields.keys.sorted().map { "\($0.debugDescription): \(fields[$0]!)" }.joined(separator: ", ") + "}"
        }
    }
}

/// An answer that should have been JSON was not.
struct JSONTextError: Error, CustomStringConvertible {
    let text: String
    var description: String { "not JSON: \(text.prefix(500))" }
}
