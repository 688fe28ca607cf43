package import JSONValues
import Foundation

/// Encodes a Swift `Encodable` value straight into a `JSONValue`: the shape `JSONEncoder` gives it,
/// without the JSON text in between (and without its loss of a whole double's kind).
///
/// Numbers keep their kind, as `JSONValue` says: a `Double` (even `2.0`) is a `.double`, an `Int` an
/// `.int`. `Data` becomes a base64 string, a `URL` its absolute string, a `Date` its seconds since 2001,
/// as `JSONEncoder` writes them, and a float that is not finite is refused, as JSON refuses it.
package struct JSONValueEncoder {
    /// The JSON value of `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a float that is not finite, or a value that encodes nothing.
    package init() {}

    package func encode(_ value: some Encodable) throws -> JSONValue {
        let slot = Slot()
        try Self.encode(value, into: slot, codingPath: [])
        guard let result = slot.built else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "the value encoded nothing"))
        }
        return result
    }

    /// Encodes `value` into `slot`: script values as they are, the types JSON treats specially as JSON
    /// does, anything else through its own `encode(to:)`.
    fileprivate static func encode(_ value: some Encodable, into slot: Slot, codingPath: [any CodingKey]) throws {
        switch value {
        case let script as JSONValue: slot.value = script
        case let data as Data: slot.value = .string(data.base64EncodedString())
        case let url as URL: slot.value = .string(url.absoluteString)
        case let decimal as Decimal: slot.value = number(decimal: decimal)
        default: try value.encode(to: Encoding(slot: slot, codingPath: codingPath))
        }
    }

    /// The value of a float: a `.double`, whole or not; JSON has no number for infinities and NaN.
    fileprivate static func number(_ value: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not valid in JSON"))
        }
        return .double(value)
    }

    /// The value of a decimal, which has no kind of its own: an integer when it is whole and fits `Int`.
    fileprivate static func number(decimal: Decimal) -> JSONValue {
        if let integer = Int(decimal.description) { return .int(integer) }
        return .double(NSDecimalNumber(decimal: decimal).doubleValue)
    }
}

/// Where one encoded value goes: a reference, so nested containers fill their parent's entry after
/// they were handed out, as `Encoder` requires.
private final class Slot {
    var value: JSONValue?
    var fields: [String: Slot]?
    var elements: [Slot]?

    /// The value built so far, containers included.
    var built: JSONValue? {
        if let fields { return .object(fields.compactMapValues(\.built)) }
        if let elements { return .array(elements.compactMap(\.built)) }
        return value
    }

    func makeFields() {
        if fields == nil { fields = [:] }
    }

    func makeElements() {
        if elements == nil { elements = [] }
    }
}

private struct Encoding: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.makeFields()
        return KeyedEncodingContainer(Keyed<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.makeElements()
        return Unkeyed(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(slot: slot, codingPath: codingPath)
    }
}

/// The scalar encodings every container shares: into a slot.
private protocol SlotEncoding {
    var codingPath: [any CodingKey] { get }
}

extension SlotEncoding {
    func put(_ value: some Encodable, in slot: Slot, at path: [any CodingKey]) throws {
        switch value {
        case let flag as Bool: slot.value = .bool(flag)
        case let text as String: slot.value = .string(text)
        case let number as Double: slot.value = try JSONValueEncoder.number(number, codingPath: path)
        case let number as Float: slot.value = try JSONValueEncoder.number(Double(number.description) ?? Double(number), codingPath: path)
        case let number as any BinaryInteger:
            slot.value = Int(exactly: number).map(JSONValue.int) ?? .double(Double(number))
        default: try JSONValueEncoder.encode(value, into: slot, codingPath: path)
        }
    }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol, SlotEncoding {
    let slot: Slot
    let codingPath: [any CodingKey]

    private func entry(_ key: some CodingKey) -> Slot {
        if let existing = slot.fields?[key.stringValue] { return existing }
        let entry = Slot()
        slot.fields?[key.stringValue] = entry
        return entry
    }

    mutating func encodeNil(forKey key: Key) throws { entry(key).value = .null }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try put(value, in: entry(key), at: codingPath + [key])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        Encoding(slot: entry(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        Encoding(slot: entry(key), codingPath: codingPath + [key]).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        Encoding(slot: entry(SuperKey()), codingPath: codingPath + [SuperKey()])
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        Encoding(slot: entry(key), codingPath: codingPath + [key])
    }
}

private struct Unkeyed: UnkeyedEncodingContainer, SlotEncoding {
    let slot: Slot
    let codingPath: [any CodingKey]
    var count: Int { slot.elements?.count ?? 0 }

    private func next() -> Slot {
        let element = Slot()
        slot.elements?.append(element)
        return element
    }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }

    mutating func encodeNil() throws { next().value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try put(value, in: next(), at: path)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return Encoding(slot: next(), codingPath: path).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return Encoding(slot: next(), codingPath: path).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return Encoding(slot: next(), codingPath: path)
    }
}

private struct Single: SingleValueEncodingContainer, SlotEncoding {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try put(value, in: slot, at: codingPath)
    }
}

/// The key of a superclass's encoding, as `JSONEncoder` names it.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// The key of an array element in a coding path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
