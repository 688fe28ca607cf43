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

    /// A dictionary key: any string.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for element in values { try container.encode(PropertyListRepresentation(value: element)) }
        case .dictionary(let values):
            var container = encoder.container(keyedBy: Key.self)
            for (key, element) in values {
                try container.encode(PropertyListRepresentation(value: element), forKey: Key(stringValue: key))
            }
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .int(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .double(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .data(let bytes):
            var container = encoder.singleValueContainer()
            try container.encode(bytes)
        case .date(let date):
            var container = encoder.singleValueContainer()
            try container.encode(date)
        }
    }

    /// The bytes of a binary property list holding `root`.
    static func binaryData(_ root: PreferenceValue) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode(PropertyListRepresentation(value: root))
    }
}
