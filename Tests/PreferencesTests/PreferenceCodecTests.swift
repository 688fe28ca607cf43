import Foundation
import PropertyBased
import Testing
import Preferences
import TestSupport

/// The direct conversions of ``PreferenceValueConvertible`` types give what Foundation's property-list
/// coders give, so a value on disk is the same whichever way it was made, and reading never accepts or
/// refuses what the coders would not.
@Suite struct PreferenceCodecTests {
    /// `value` encodes as the property-list encoder encodes it, and decodes back to itself.
    func expectSameAsPropertyListCoders<Value: Codable & Equatable & Sendable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let codec = PreferenceCodec<Value>()
        let direct = try codec.encode(value)
        #expect(direct == (try PreferenceValue(encoding: value)), "\(value)", sourceLocation: sourceLocation)
        #expect(try codec.decode(direct) == value, "\(value)", sourceLocation: sourceLocation)
    }

    /// Decoding `stored` as `Value` gives what the property-list decoder gives, or fails where it fails —
    /// except where that decoder refuses a `$null` it wrote, which now reads exactly as stored.
    func expectSameDecoding<Value: Codable & Equatable & Sendable>(_ stored: PreferenceValue, as type: Value.Type, sourceLocation: SourceLocation = #_sourceLocation) {
        let direct = Result { try PreferenceCodec<Value>().decode(stored) }
        let reference = Result { try stored.decode(Value.self) }
        switch (direct, reference) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(stored) as \(Value.self)", sourceLocation: sourceLocation)
        case (.failure, .failure): break
        case (.success(let value), .failure) where stored.mentionsNullMarker:
            #expect((try? PreferenceCodec<Value>().encode(value)) == stored, "\(stored) as \(Value.self)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(stored) as \(Value.self): direct \(direct), property-list decoder \(reference)", sourceLocation: sourceLocation)
        }
    }

    @Test func scalarsEncodeAsThePropertyListEncoderDoes() throws {
        for value in [0, 1, -1, Int.max, Int.min] { try expectSameAsPropertyListCoders(value) }
        for value in [true, false] { try expectSameAsPropertyListCoders(value) }
        for value in [0.0, -0.0, 2.0, 0.1, -3.5, 1e300, 5e-324, .infinity, -.infinity] { try expectSameAsPropertyListCoders(value) }
        for value in ["", "a", "héllo", "🍐", "1.5"] { try expectSameAsPropertyListCoders(value) }
        try expectSameAsPropertyListCoders(Data([0, 1, 255]))
        try expectSameAsPropertyListCoders(Data())
        try expectSameAsPropertyListCoders(Date(timeIntervalSinceReferenceDate: 1_000_000.25))
    }

    @Test func optionalsArraysAndDictionariesEncodeAsThePropertyListEncoderDoes() throws {
        try expectSameAsPropertyListCoders(String?.none)
        try expectSameAsPropertyListCoders(String?.some("x"))
        try expectSameAsPropertyListCoders(Int?.some(3))
        try expectSameAsPropertyListCoders([1, 2, 3])
        try expectSameAsPropertyListCoders([Int]())
        try expectSameAsPropertyListCoders(["a": 1.5, "b": 2.0])
        try expectSameAsPropertyListCoders([["x": [1, 2]], [:]])
        try expectSameAsPropertyListCoders([String?.none, "y"])
        #expect(try PreferenceCodec<String?>().encode(nil) == .string(PreferenceValue.nullMarker))
    }

    @Test func integersEncodeAsThePropertyListEncoderDoes() async {
        await propertyCheck(count: 300, input: Gen.int()) { number in
            try expectSameAsPropertyListCoders(number)
            try expectSameAsPropertyListCoders([number, -number / 2])
        }
    }

    @Test func realsEncodeAsThePropertyListEncoderDoes() async {
        await propertyCheck(count: 300, input: Gen.double(in: -1e300...1e300)) { number in
            try expectSameAsPropertyListCoders(number)
            try expectSameAsPropertyListCoders(["r": number.rounded()])
        }
    }

    /// Any stored value, of any shape, reads as the property-list decoder reads it: what the direct
    /// reading does not recognise (an integer read as a real, a real as an integer) it still accepts.
    @Test func anyStoredValueDecodesAsThePropertyListDecoderDoes() async {
        await propertyCheck(count: 300, input: Gen.int()) { seed in
            var generator = SeededRandom(seed: seed)
            let stored = PreferenceValue.random(depth: 2, using: &generator)
            expectSameDecoding(stored, as: Int.self)
            expectSameDecoding(stored, as: Double.self)
            expectSameDecoding(stored, as: Bool.self)
            expectSameDecoding(stored, as: String.self)
            expectSameDecoding(stored, as: Data.self)
            expectSameDecoding(stored, as: Date.self)
            expectSameDecoding(stored, as: Int?.self)
            expectSameDecoding(stored, as: [Double].self)
            expectSameDecoding(stored, as: [String: Int].self)
        }
    }

    @Test func integersAndRealsReadAcrossAsTheDecoderAllows() {
        expectSameDecoding(.int(3), as: Double.self)
        expectSameDecoding(.double(3), as: Int.self)
        expectSameDecoding(.double(3.5), as: Int.self)
        expectSameDecoding(.int(1), as: Bool.self)
        expectSameDecoding(.bool(true), as: Int.self)
        expectSameDecoding(.array([.int(1), .double(2)]), as: [Double].self)
    }
}
