import Foundation
import Tweaks

/// An OFREP bulk evaluation answer: `{"flags": [{key, value?, reason, variant, metadata} |
/// {key, errorCode, errorDetails}], "metadata": {…}}`.
struct OFREPBulkAnswer: Sendable, Equatable {
    enum Entry: Sendable, Equatable {
        case resolved(value: JSONValue?, reason: TweakReason, variant: String?, metadata: [String: JSONValue])
        case failed(code: TweakErrorCode, details: String)
    }

    /// The entries by flag key.
    var flags: [String: Entry]
    /// The answer's flag-set metadata.
    var metadata: [String: JSONValue]

    /// Reads `data`; `file` names it in errors.
    init(_ data: Data, file: String) throws {
        func problem(_ position: JSONScanner.Position, _ key: String?, _ reason: String) -> TweakError {
            TweakError.invalidJSON(file: file, line: position.line, column: position.column, key: key, reason: reason)
        }
        let root: JSONScanner.Node
        do {
            root = try JSONScanner.parse(data)
        } catch {
            throw problem(error.position, nil, error.message)
        }
        guard case .object(let members) = root.value else {
            throw problem(root.position, nil, "an OFREP bulk answer is an object, not \(TweakError.withArticle(root.value.typeName))")
        }
        var flags: [String: Entry] = [:]
        var metadata: [String: JSONValue] = [:]
        for member in members {
            switch member.key {
            case "flags":
                guard case .array(let items) = member.node.value else {
                    throw problem(member.node.position, "flags", "must be an array")
                }
                for item in items {
                    guard case .object(let fields) = item.value else {
                        throw problem(item.position, "flags", "each flag must be an object")
                    }
                    var values: [String: JSONValue] = [:]
                    for field in fields {
                        if let value = Self.value(field.node) { values[field.key] = value }
                    }
                    guard let key = values["key"]?.stringValue else {
                        throw problem(item.position, "flags", "a flag without a string 'key'")
                    }
                    if let code = values["errorCode"]?.stringValue {
                        flags[key] = .failed(
                            code: TweakErrorCode(rawValue: code), details: values["errorDetails"]?.stringValue ?? code)
                    } else {
                        var flagMetadata: [String: JSONValue] = [:]
                        if case .object(let fields)? = values["metadata"] { flagMetadata = fields }
                        flags[key] = .resolved(
                            value: values["value"],
                            reason: values["reason"]?.stringValue.map(TweakReason.init(rawValue:)) ?? .unknown,
                            variant: values["variant"]?.stringValue, metadata: flagMetadata)
                    }
                }
            case "metadata":
                if case .object(let fields)? = Self.value(member.node) { metadata = fields }
            default:
                continue
            }
        }
        self.flags = flags
        self.metadata = metadata
    }

    /// A JSON value as a tweak value; nil for null (and null members and items are left out).
    private static func value(_ node: JSONScanner.Node) -> JSONValue? {
        switch node.value {
        case .null: nil
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.compactMap(value))
        case .object(let members):
            .object(Dictionary(members.compactMap { member in value(member.node).map { (member.key, $0) } }) { _, last in last })
        }
    }
}
