import Foundation

extension JSONValue {
    /// The value decoded as `type`, through its `Decodable` conformance.
    ///
    /// - Throws: `DecodingError`, whose coding path names the field that did not fit.
    public func decode<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
    }

    /// The value `value` encodes to, through its `Encodable` conformance (by way of Foundation's JSON,
    /// so a whole `Double` such as `2.0` becomes the integer `2`; decoding reads it back as the `Double`).
    ///
    /// - Throws: `EncodingError` or `DecodingError`.
    public init<T: Encodable>(encoding value: T) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    /// The value `text` denotes when typed on a command line or in a form: `true`/`false` as a Boolean,
    /// an integer as `.int`, a decimal number as `.double`, anything else as a string. Pass
    /// `forceString: true` to keep, say, "42" a string.
    public init(parsing text: String, forceString: Bool = false) {
        if forceString {
            self = .string(text)
        } else if text == "true" || text == "false" {
            self = .bool(text == "true")
        } else if let int = Int(text) {
            self = .int(int)
        } else if let double = Double(text), double.isFinite, text.contains(where: { $0.isNumber }),
                  text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) })
        {
            self = .double(double)
        } else {
            self = .string(text)
        }
    }
}
