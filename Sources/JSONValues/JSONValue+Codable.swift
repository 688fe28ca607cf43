import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value, null included. Foundation's decoders do not say how a number was written,
    /// so a whole number written `2.0` decodes as `.int(2)`, unless the decoder keeps number kinds
    /// (``keepsNumberKinds``); ``jsonText`` and the strict reader keep them without help.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, keepingNumberKinds: decoder.userInfo[Self.keepsNumberKinds] as? Bool ?? false)
    }

    /// Encodes the value as itself. Foundation's JSON encoder writes a whole double without its fraction,
    /// so it reads back as an integer, unless the encoder keeps number kinds (``keepsNumberKinds``).
    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, keepingNumberKinds: encoder.userInfo[Self.keepsNumberKinds] as? Bool ?? false)
    }

    /// Set to `true` in a coder's `userInfo` to keep every double a double through it: a whole or
    /// non-finite double is written as the one-field object `{"$float": "2.0"}` and read back from it.
    /// State files and the state API use it, so that a float a script stores is a float when read.
    public static let keepsNumberKinds = CodingUserInfoKey(rawValue: "JSONValue.keepsNumberKinds")!

    /// The one key of the object that stands for a whole or non-finite double when number kinds are kept.
    package static let floatMarker = "$float"

    /// Whether `number` is written as `{"$float": "..."}` when number kinds are kept: Foundation's
    /// coders would read it back as an integer (or could not write it at all).
    package static func needsFloatMarker(_ number: Double) -> Bool {
        !number.isFinite || number == number.rounded()
    }

    /// The double a `{"$float": "..."}` object stands for, or nil when `fields` is not one.
    package static func markedFloat(in fields: [String: JSONValue]) -> Double? {
        guard fields.count == 1, case .string(let text)? = fields[floatMarker] else { return nil }
        return Double(text)
    }

    /// This value with every `{"$float": "..."}` object read as the double it stands for: a value read
    /// from JSON text that a coder keeping number kinds wrote.
    package func readingFloatMarkers() -> JSONValue {
        switch self {
        case .object(let fields):
            if let number = Self.markedFloat(in: fields) { return .double(number) }
            return .object(fields.mapValues { $0.readingFloatMarkers() })
        case .array(let elements): return .array(elements.map { $0.readingFloatMarkers() })
        case .null, .bool, .int, .double, .string: return self
        }
    }

    private struct FloatKey: CodingKey {
        var stringValue: String { JSONValue.floatMarker }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { if stringValue != JSONValue.floatMarker { return nil } }
        init?(intValue: Int) { nil }
    }

    fileprivate init(from decoder: any Decoder, keepingNumberKinds keep: Bool) throws {
        if keep, let keyed = try? decoder.container(keyedBy: FloatKey.self), keyed.allKeys.count == 1,
           let text = try? keyed.decode(String.self, forKey: FloatKey()), let number = Double(text)
        {
            self = .double(number)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if keep, let value = try? container.decode([KindKeepingJSONValue].self) {
            self = .array(value.map(\.value))
        } else if keep, let value = try? container.decode([String: KindKeepingJSONValue].self) {
            self = .object(value.mapValues(\.value))
        } else if !keep, let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if !keep, let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a JSON value (a Boolean, a number, a string, an array, an object or null)")
        }
    }

    fileprivate func encode(to encoder: any Encoder, keepingNumberKinds keep: Bool) throws {
        if keep, case .double(let number) = self, Self.needsFloatMarker(number) {
            var keyed = encoder.container(keyedBy: FloatKey.self)
            try keyed.encode("\(number)", forKey: FloatKey())
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value) where keep: try container.encode(value.map(KindKeepingJSONValue.init))
        case .object(let value) where keep: try container.encode(value.mapValues(KindKeepingJSONValue.init))
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// A ``JSONValue`` coded with its number kinds kept (see ``JSONValue/keepsNumberKinds``), whatever the
/// coder's `userInfo` says: for a payload that holds one among other fields.
package struct KindKeepingJSONValue: Codable, Sendable, Hashable {
    /// The value.
    package var value: JSONValue

    /// Wraps `value`.
    package init(_ value: JSONValue) {
        self.value = value
    }

    package init(from decoder: any Decoder) throws {
        value = try JSONValue(from: decoder, keepingNumberKinds: true)
    }

    package func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder, keepingNumberKinds: true)
    }
}
