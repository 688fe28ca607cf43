import EnvScriptOperations
import Foundation
package import Hummingbird
import Tweaks

/// The JSON object a request sends, read field by field with errors that name the field and say what
/// was expected — `field 'name' must be a string, not a number` — instead of a decoder's coding path.
///
/// Values are read as `JSONValue`s, the same values the `state` module stores, so a state value
/// sent over HTTP is exactly what `state.set` would store from Lua.
package struct ControlRequestBody: Sendable {
    /// The largest body read; control requests are small.
    static let maximumSize = 1024 * 1024

    /// The object's fields.
    let fields: [String: JSONValue]

    /// Reads the request's body as a JSON object whose fields are all in `allowed`.
    ///
    /// - Parameter example: a valid body, shown in the error when the body is empty or not an object.
    /// - Throws: ``ControlError`` `bad_request` naming what is wrong.
    package static func read(_ request: Request, allowed: [String], example: String) async throws -> ControlRequestBody {
        let buffer = try await request.body.collect(upTo: maximumSize)
        let data = Data(buffer.readableBytesView)
        return try parse(data, allowed: allowed, example: example)
    }

    /// Parses `data` as in ``read(_:allowed:example:)``; with `allowed` nil, any field is taken (OFREP's
    /// requests may carry fields this version does not know).
    static func parse(_ data: Data, allowed: [String]?, example: String) throws -> ControlRequestBody {
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            throw ControlError(.badRequest, "the request body is empty; send a JSON object such as \(example)")
        }
        // JSON is UTF-8 text; bytes that are not would be read as U+FFFD and stored so (in a name, say).
        guard String(validating: data, as: UTF8.self) != nil else {
            throw ControlError(.badRequest, "the request body is not valid UTF-8; send JSON encoded as UTF-8, such as \(example)")
        }
        let value: JSONValue
        do {
            value = try JSONValue(jsonText: data)
        } catch {
            throw ControlError(.badRequest, "the request body is not valid JSON (\(error)); send a JSON object such as \(example)")
        }
        guard case .object(let fields) = value else {
            throw ControlError(.badRequest, "the request body must be a JSON object, not \(value.jsonTypeName); for example \(example)")
        }
        if let allowed, let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ControlError(.badRequest, "unknown field '\(unknown)' in the request body; expected \(allowed.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return ControlRequestBody(fields: fields)
    }

    /// The string field `name`; nil when absent or null.
    func optionalString(_ name: String) throws -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw ControlError(.badRequest, "field '\(name)' must be a string, not \(other.jsonTypeName)")
        }
    }

    /// The string field `name`.
    func string(_ name: String) throws -> String {
        guard let text = try optionalString(name) else {
            throw ControlError(.badRequest, "field '\(name)' is required (a string)")
        }
        return text
    }

    /// The field `name` as an array of strings; nil when absent or null.
    package func stringArray(_ name: String) throws -> [String]? {
        switch fields[name] {
        case nil, .null?: return nil
        case .array(let items)?:
            return try items.enumerated().map { index, item in
                guard case .string(let text) = item else {
                    throw ControlError(.badRequest, "field '\(name)' must hold strings; item \(index + 1) is \(item.jsonTypeName)")
                }
                return text
            }
        case let other?: throw ControlError(.badRequest, "field '\(name)' must be an array of strings, not \(other.jsonTypeName)")
        }
    }

    /// The field `name` as any JSON value (null included).
    func value(_ name: String) throws -> JSONValue {
        guard let value = fields[name] else { throw ControlError(.badRequest, "field '\(name)' is required") }
        return value
    }

    /// The field `name` as a tweak value: a Boolean, a number, a string, or an array or object of those.
    func tweakValue(_ name: String) throws -> JSONValue {
        let value = try value(name)
        guard !value.containsNull else {
            throw ControlError(.badRequest, "field '\(name)' must be a Boolean, a number, a string, an array or an object, with no null inside")
        }
        return value
    }
}

extension JSONValue {
    /// "null", "a Boolean", "an integer", "a number", "a string", "an array" or "an object": JSON's own
    /// words, for the messages a request's author reads (``JSONValue/typeName`` is Swift's and Lua's
    /// name of the case, "bool", "int", "double"...).
    var jsonTypeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .int: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
