import Foundation
import Testing
@testable import Tweaks

/// flagd's `fractional`: canonical CBOR of the bucketing value, MurmurHash3, weights.
@Suite struct FractionalTests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func murmurHash3MatchesPublishedVectors() {
        #expect(MurmurHash3.hash32(Array("".utf8)) == 0)
        #expect(MurmurHash3.hash32(Array("".utf8), seed: 1) == 0x514E_28B7)
        #expect(MurmurHash3.hash32(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x2E4F_F723)
        #expect(MurmurHash3.hash32(Array("abc".utf8)) == 0xB3DD_93FA)
    }

    @Test func canonicalCBORMatchesRFCExamples() throws {
        let cases: [(String, String)] = [
            ("0", "00"), ("23", "17"), ("24", "1818"), ("1000", "1903e8"), ("1000000", "1a000f4240"),
            ("1000000000000", "1b000000e8d4a51000"), ("-1", "20"), ("-100", "3863"), ("-1000", "3903e7"),
            ("1.1", "fb3ff199999999999a"), ("1.5", "f93e00"), ("-4.1", "fbc010666666666666"),
            ("3.4028234663852886e+38", "fa7f7fffff"), ("5.960464477539063e-8", "f90001"), ("1.0e+300", "fb7e37e43c8800759c"),
            ("\"IETF\"", "6449455446"), ("\"\\u00fc\"", "62c3bc"), ("[1, [2, 3], [4, 5]]", "8301820203820405"),
            ("{\"a\": 1, \"b\": [2, 3]}", "a26161016162820203"), ("true", "f5"), ("null", "f6"),
        ]
        for (json, expected) in cases {
            #expect(hex(CanonicalCBOR.encode(try Rule.value(json))) == expected, "\(json)")
        }
    }

    @Test func wholeNumbersAreIntegersWhateverTheirSpelling() throws {
        #expect(CanonicalCBOR.encode(try Rule.value("1.0")) == CanonicalCBOR.encode(try Rule.value("1")))
        #expect(CanonicalCBOR.encode(try Rule.value("-0.0")) == [0x00])
        #expect(hex(CanonicalCBOR.encode(try Rule.value("65504.0"))) == "19ffe0")
    }

    @Test func mapKeysSortByEncodedLengthThenBytes() throws {
        #expect(hex(CanonicalCBOR.encode(try Rule.value("{\"b\": 2, \"aa\": 1}"))) == "a2616202626161" + "01")
    }

    @Test func shorthandBucketsByFlagKeyAndTargetingKey() throws {
        let rule = "{\"fractional\": [[\"a\", 50], [\"b\", 50]]}"
        for user in ["u1", "u2", "u3", "u4", "u5", "u6"] {
            var bytes: [UInt8] = [0x82]
            CanonicalCBOR.appendString("my-flag", to: &bytes)
            CanonicalCBOR.appendString(user, to: &bytes)
            let point = (UInt64(MurmurHash3.hash32(bytes)) * 100) >> 32
            let result = try Rule.evaluate(rule, flagKey: "my-flag", context: TweakContext(targetingKey: user))
            #expect(result == .string(point < 50 ? "a" : "b"), "\(user)")
        }
    }

    @Test func explicitBucketingValueIsHashedAsItsCBOR() throws {
        let rule = "{\"fractional\": [{\"var\": \"org\"}, [\"a\", 1], [\"b\", 1], [\"c\", 1]]}"
        for org in ["acme", "globex", "initech", "umbrella"] {
            let point = (UInt64(MurmurHash3.hash32(CanonicalCBOR.encode(.string(org)))) * 3) >> 32
            let result = try Rule.evaluate(rule, context: TweakContext(attributes: ["org": .string(org)]))
            #expect(result == .string(["a", "b", "c"][Int(point)]))
        }
    }

    @Test func distributionFollowsTheWeights() throws {
        let rule = try Rule.compile("{\"fractional\": [[\"a\", 50], [\"b\", 30], [\"c\", 20]]}")
        var counts: [String: Int] = [:]
        let total = 20_000
        for index in 0..<total {
            let input = FlagEvaluationInput(flagKey: "split", context: TweakContext(targetingKey: "user-\(index)"))
            if case .string(let variant) = LogicEvaluator.evaluate(rule, .context(input)) { counts[variant, default: 0] += 1 }
        }
        #expect(counts.values.reduce(0, +) == total)
        for (variant, share) in [("a", 0.5), ("b", 0.3), ("c", 0.2)] {
            let observed = Double(counts[variant] ?? 0) / Double(total)
            #expect(abs(observed - share) < 0.02, "\(variant): \(observed)")
        }
    }

    @Test func assignmentIsStableAndDependsOnTheFlagKey() throws {
        let rule = try Rule.compile("{\"fractional\": [[\"a\"], [\"b\"]]}")
        var differs = 0
        for index in 0..<200 {
            let context = TweakContext(targetingKey: "user-\(index)")
            let first = LogicEvaluator.evaluate(rule, .context(FlagEvaluationInput(flagKey: "one", context: context)))
            let again = LogicEvaluator.evaluate(rule, .context(FlagEvaluationInput(flagKey: "one", context: context)))
            let other = LogicEvaluator.evaluate(rule, .context(FlagEvaluationInput(flagKey: "two", context: context)))
            #expect(first == again)
            if first != other { differs += 1 }
        }
        #expect(differs > 50 && differs < 150)
    }

    @Test func weightsZeroNegativeAndInvalid() throws {
        let context = TweakContext(targetingKey: "someone")
        #expect(try Rule.evaluate("{\"fractional\": [[\"a\", 0], [\"b\", 0]]}", context: context) == .null)
        #expect(try Rule.evaluate("{\"fractional\": [[\"a\", -50], [\"b\", 10]]}", context: context) == .string("b"))
        #expect(try Rule.evaluate("{\"fractional\": [[\"a\", 1.5], [\"b\", 1]]}", context: context) == .null)
        #expect(try Rule.evaluate("{\"fractional\": [[\"a\", 2147483647], [\"b\", 1]]}", context: context) == .null)
        #expect(try Rule.evaluate("{\"fractional\": [[\"only\", 1]]}", context: context) == .string("only"))
    }

    @Test func noBucketingValueGivesNull() throws {
        #expect(try Rule.evaluate("{\"fractional\": [[\"a\"], [\"b\"]]}", context: .empty) == .null)
        #expect(try Rule.evaluate("{\"fractional\": [[\"a\"], [\"b\"]]}", context: TweakContext(targetingKey: "")) == .null)
        #expect(try Rule.evaluate("{\"fractional\": [{\"var\": \"nothing\"}, [\"a\"], [\"b\"]]}", context: TweakContext(targetingKey: "x")) == .null)
    }

    @Test func bucketsMayBeComputed() throws {
        let rule = "{\"fractional\": [\"seed\", [{\"if\": [{\"var\": \"vip\"}, \"gold\", \"plain\"]}, 1]]}"
        #expect(try Rule.evaluate(rule, context: TweakContext(attributes: ["vip": true])) == .string("gold"))
        #expect(try Rule.evaluate(rule, context: TweakContext(attributes: ["vip": false])) == .string("plain"))
    }
}
