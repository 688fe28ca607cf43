import Foundation

/// A preference value as `PropertyListEncoder` writes it: each case as the property-list type it stands
/// for (`Data` and `Date` included), arrays and dictionaries element by element.
///
/// Values are written through the encoder rather than `PropertyListSerialization`: a statically linked
/// Foundation (as `scripts/envscript` and `scripts/bench` build the command) cannot write an array
/// through `PropertyListSerialization` ("property lists cannot contain objects of type 'Not A Type'"),
/// while the encoder, written in Swift, writes every value in every build.
struct PropertyListRepresentation: Encodable {
    let value: PreferenceValue

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .array(let values): try values.map(PropertyListRepresentation.init).encode(to: encoder)
        case .dictionary(let values): try values.mapValues(PropertyListRepresentation.init).encode(to: encoder)
        case .bool(let flag): try Self.encodeSingle(flag, to: encoder)
        case .int(let number): try Self.encodeSingle(number, to: encoder)
        case .double(let number): try Self.encodeSingle(number, to: encoder)
        case .string(let text): try Self.encodeSingle(text, to: encoder)
        case .data(let bytes): try Self.encodeSingle(bytes, to: encoder)
        case .date(let date): try Self.encodeSingle(date, to: encoder)
        }
    }

    /// Encodes `value` through a single-value container, where the encoder writes `Data` and `Date` as
    /// the property-list types they are (their own `encode(to:)` would write an array and a number).
    private static func encodeSingle(_ value: some Encodable, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    /// The bytes of a binary property list holding `root`.
    static func binaryData(_ root: PreferenceValue) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode(PropertyListRepresentation(value: root))
    }
}
