@testable import EnvScript
import Foundation
import PropertyBased
import Testing

/// Swift-typed state reads from Lua as a round trip through JSON gave it (issue #11, item 10), now
/// without the JSON.
@Suite struct ScriptValueEncoderTests {
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
        var script: ScriptValue
    }

    /// What the JSON round trip gave.
    func throughJSON(_ value: some Encodable) throws -> ScriptValue {
        try JSONDecoder().decode(ScriptValue.self, from: JSONEncoder().encode(value))
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
        #expect(try ScriptValue(swift: value) == (try throughJSON(value)))
    }

    @Test func numbersReadAsThroughJSON() async {
        await propertyCheck(count: 300, input: Gen.int(), Gen.double(in: -1e20...1e20)) { count, ratio in
            let value = everything(count: count, ratio: ratio)
            let direct = try ScriptValue(swift: value)
            #expect(direct == (try throughJSON(value)), "\(count), \(ratio)")
            let rounded = ratio.rounded()
            #expect(try ScriptValue(swift: [rounded, rounded / 4]) == (try throughJSON([rounded, rounded / 4])), "\(rounded)")
        }
    }

    @Test func floatsThatAreNotFiniteAreRefusedAsJSONRefusesThem() {
        #expect(throws: (any Error).self) { try ScriptValue(swift: [Double.nan]) }
        #expect(throws: (any Error).self) { try ScriptValue(swift: Inner(flag: true, ratio: .infinity, note: nil)) }
    }
}
