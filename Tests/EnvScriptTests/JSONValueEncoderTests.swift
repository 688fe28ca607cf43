@testable import EnvScript
import Foundation
import PropertyBased
import Testing

/// Swift-typed state reads from Lua as a round trip through JSON gave it (issue #11, item 10), now
/// without the JSON — except that numbers keep their kind: a `Double` is a double even when it is whole,
/// which JSON text written by Foundation loses.
@Suite struct JSONValueEncoderTests {
    struct Inner: Codable, Sendable {
        var flag: Bool
        var ratio: Double
        var note: String?
    }

    enum Mode: String, Codable, Sendable { case fast, careful }

    struct Everything: Codable, Sendable {
        var name: String
        var count: Int
        var whole: Double
        var fraction: Double
        var small: Float
        var tiny: Int8
        var huge: UInt64
        var missing: String?
        var present: Int?
        var list: [Int]
        var table: [String: Double]
        var byNumber: [Int: String]
        var when: Date
        var bytes: Data
        var link: URL
        var amount: Decimal
        var mode: Mode
        var inner: Inner
        var inners: [Inner]
        var script: JSONValue
    }

    /// What the JSON round trip gave.
    func throughJSON(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    /// `value` with every number a double: what is left to compare once Foundation's JSON text, which
    /// writes a whole double as an integer, has lost the kinds.
    func kindless(_ value: JSONValue) -> JSONValue {
        switch value {
        case .int(let number): .double(Double(number))
        case .array(let elements): .array(elements.map(kindless))
        case .object(let fields): .object(fields.mapValues(kindless))
        default: value
        }
    }

    func everything(count: Int, ratio: Double) -> Everything {
        Everything(
            name: "ada", count: count, whole: 2, fraction: ratio, small: 0.1, tiny: -3, huge: .max, missing: nil,
            present: 4, list: [1, count], table: ["a": 1.5, "b": ratio], byNumber: [1: "one", 20: "twenty"],
            when: Date(timeIntervalSinceReferenceDate: 1_000), bytes: Data([0, 1, 255]),
            link: URL(string: "https://example.com/a?b=c")!, amount: Decimal(string: "12.5")!, mode: .careful,
            inner: Inner(flag: true, ratio: ratio, note: "n"), inners: [Inner(flag: false, ratio: 3, note: nil)],
            script: .object(["f": .double(2), "n": .null, "i": .int(1)]))
    }

    @Test func everyKindOfValueReadsAsThroughJSON() throws {
        let value = everything(count: 3, ratio: 0.25)
        let direct = try JSONValue(swift: value)
        #expect(kindless(direct) == kindless(try throughJSON(value)))
        // Numbers keep their Swift kind.
        let fields = try #require(direct.objectValue)
        #expect(fields["count"] == .int(3))
        #expect(fields["whole"] == .double(2))
        #expect(fields["small"] == .double(0.1))
        #expect(fields["huge"] == .double(Double(UInt64.max)))
        #expect(fields["table"] == .object(["a": .double(1.5), "b": .double(0.25)]))
        #expect(fields["inners"] == .array([.object(["flag": .bool(false), "ratio": .double(3)])]))
        #expect(fields["script"] == .object(["f": .double(2), "n": .null, "i": .int(1)]))
    }

    @Test func numbersReadAsThroughJSON() async {
        await propertyCheck(count: 300, input: Gen.int(), Gen.double(in: -1e20...1e20)) { count, ratio in
            let value = everything(count: count, ratio: ratio)
            let direct = try JSONValue(swift: value)
            #expect(kindless(direct) == kindless(try throughJSON(value)), "\(count), \(ratio)")
            #expect(direct.objectValue?["fraction"] == .double(ratio))
            let rounded = ratio.rounded()
            #expect(try JSONValue(swift: [rounded, rounded / 4]) == .array([.double(rounded), .double(rounded / 4)]), "\(rounded)")
        }
    }

    @Test func floatsThatAreNotFiniteAreRefusedAsJSONRefusesThem() {
        #expect(throws: (any Error).self) { try JSONValue(swift: [Double.nan]) }
        #expect(throws: (any Error).self) { try JSONValue(swift: Inner(flag: true, ratio: .infinity, note: nil)) }
    }
}
