import Foundation

extension ScriptValue {
    /// This value as a `type` value, decoded through its JSON form: how a script's table becomes the
    /// `Codable` struct a Swift declaration holds (`state.set("settings", {dark = true, size = 14})`),
    /// and an integer the `Double` one does.
    ///
    /// Numbers are written plainly (no `{"$float": ...}` marker), so an integral float decodes into an
    /// `Int` field and an integer into a `Double` one, as they would from any JSON.
    ///
    /// - Returns: nil when `type` is not `Decodable`.
    /// - Throws: the `DecodingError`, which names the field that does not fit.
    func decoded<Value: Sendable>(as type: Value.Type) throws -> Value? {
        guard let decodable = type as? any Decodable.Type else { return nil }
        let json = try JSONEncoder().encode(PlainJSON(value: self))
        return try JSONDecoder().decode(decodable, from: json) as? Value
    }

    /// A script value encoded as plain JSON: numbers as numbers, tables as arrays and objects.
    private struct PlainJSON: Encodable {
        let value: ScriptValue

        func encode(to encoder: any Encoder) throws {
            switch value {
            case .null:
                var single = encoder.singleValueContainer()
                try single.encodeNil()
            case .bool(let flag): try flag.encode(to: encoder)
            case .int(let number): try number.encode(to: encoder)
            case .double(let number): try number.encode(to: encoder)
            case .string(let text): try text.encode(to: encoder)
            case .array(let elements): try elements.map(PlainJSON.init).encode(to: encoder)
            case .object(let fields): try fields.mapValues(PlainJSON.init).encode(to: encoder)
            }
        }
    }
}
