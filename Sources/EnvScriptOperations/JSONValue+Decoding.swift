package import JSONValues
import Foundation

extension JSONValue {
    /// This value as a `type` value, decoded through its JSON form: how a script's table becomes the
    /// `Codable` struct a Swift declaration holds (`state.set("settings", {dark = true, size = 14})`),
    /// and an integer the `Double` one does.
    ///
    /// Numbers are written plainly (no `{"$float": ...}` marker), so an integral float decodes into an
    /// `Int` field and an integer into a `Double` one, as they would from any JSON.
    ///
    /// Infinities and NaN, which JSON has no numbers for, travel as these strings.
    ///
    /// Lua has one empty table for `{}` and `[]`: it is read as an empty object first, and when that
    /// does not fit, as an empty array (so `state.set("drafts", {})` empties a `[String]`).
    ///
    /// - Returns: nil when `type` is not `Decodable`.
    /// - Throws: the `DecodingError`, which names the field that does not fit.
    package func decoded<Value: Sendable>(as type: Value.Type) throws -> Value? {
        guard let decodable = type as? any Decodable.Type else { return nil }
        do {
            return try Self.decode(decodable, from: self) as? Value
        } catch let error as DecodingError where containsEmptyTable {
            guard let asArrays = try? Self.decode(decodable, from: emptyTablesAsArrays) else { throw error }
            return asArrays as? Value
        }
    }

    private static let infinity = "inf", negativeInfinity = "-inf", notANumber = "nan"

    /// Decodes `type` from `value`'s JSON text, written plainly (`JSONValue`'s own encoding, with no
    /// number-kind markers).
    private static func decode(_ type: any Decodable.Type, from value: JSONValue) throws -> any Decodable {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: infinity, negativeInfinity: negativeInfinity, nan: notANumber)
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: infinity, negativeInfinity: negativeInfinity, nan: notANumber)
        return try decoder.decode(type, from: try encoder.encode(value))
    }

    /// Whether an empty table is somewhere in this value.
    private var containsEmptyTable: Bool {
        switch self {
        case .object(let fields): fields.isEmpty || fields.values.contains { $0.containsEmptyTable }
        case .array(let elements): elements.contains { $0.containsEmptyTable }
        default: false
        }
    }

    /// This value with every empty object an empty array.
    private var emptyTablesAsArrays: JSONValue {
        switch self {
        case .object(let fields) where fields.isEmpty: .array([])
        case .object(let fields): .object(fields.mapValues(\.emptyTablesAsArrays))
        case .array(let elements): .array(elements.map(\.emptyTablesAsArrays))
        default: self
        }
    }
}
