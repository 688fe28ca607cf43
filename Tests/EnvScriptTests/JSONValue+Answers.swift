import Foundation
import JSONValues

/// Reading answers of the control API as JSON values, to check them against its OpenAPI document.
extension JSONValue {
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
}

/// An answer that should have been JSON was not.
struct JSONTextError: Error, CustomStringConvertible {
    let text: String
    var description: String { "not JSON: \(text.prefix(500))" }
}
