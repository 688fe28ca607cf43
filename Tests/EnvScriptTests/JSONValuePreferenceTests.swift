import AppState
import EnvScript
import Foundation
import Preferences
import PropertyBased
import Testing
import TestSupport

/// Script values convert to and from preference values directly (issue #11, item 10), into exactly the
/// form their `Codable` encoding through Foundation's property-list coders always had, so stored state
/// written before reads the same and the file is unchanged.
@Suite struct JSONValuePreferenceTests {
    /// A random script value `depth` levels of tables deep at most; no NaN (it equals nothing), no
    /// string `$null` (it stands for nil on disk) and no key `$float` (a table holding it reads as a
    /// float, as it always did), which have tests of their own.
    static func randomScriptValue(depth: Int, using generator: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .int(PreferenceValue.randomInteger(using: &generator))
        case 3: return .double(PreferenceValue.randomReal(using: &generator))
        case 4: return .double([Double.infinity, -.infinity, 1e15].randomElement(using: &generator)!)
        case 5:
            let text = PreferenceValue.randomText(using: &generator)
            return .string(text == PreferenceValue.nullMarker ? "null" : text)
        case 6: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomScriptValue(depth: depth - 1, using: &generator) })
        default:
            var fields: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                let key = PreferenceValue.randomText(using: &generator)
                fields[key == "$float" ? "float" : key] = randomScriptValue(depth: depth - 1, using: &generator)
            }
            return .object(fields)
        }
    }

    @Test func everyShapeConvertsAsThePropertyListCodersDidAndBack() async {
        await propertyCheck(count: 500, input: Gen.int()) { seed in
            var generator = SeededRandom(seed: seed)
            let value = Self.randomScriptValue(depth: 3, using: &generator)
            let direct = value.preferenceValue
            let throughPropertyListCoders = try PreferenceValue(encoding: value)
            #expect(direct == throughPropertyListCoders, "seed \(seed): \(value)")
            #expect(JSONValue(preferenceValue: direct) == value, "seed \(seed): \(direct)")
            let oldReading = try direct.decode(JSONValue.self)
            #expect(oldReading == value, "seed \(seed): the old reading agrees")
            let codecReading = try PreferenceCodec<JSONValue>().decode(direct)
            #expect(codecReading == value, "seed \(seed)")
        }
    }

    /// Whatever a preferences file holds under a key — written by this version, an older one, or another
    /// program — reads as the `Codable` decoding read it, and fails where it failed; except that a
    /// dictionary with a `$null` key, which that decoding refused, now reads exactly as it is stored.
    @Test func anyStoredValueReadsAsTheCodableDecodingReadIt() async {
        await propertyCheck(count: 500, input: Gen.int()) { seed in
            var generator = SeededRandom(seed: seed)
            let stored = PreferenceValue.random(depth: 3, using: &generator)
            let direct = Result { try PreferenceCodec<JSONValue>().decode(stored) }
            let reference = Result { try stored.decode(JSONValue.self) }
            switch (direct, reference) {
            case (.success(let a), .success(let b)): #expect(a == b, "seed \(seed): \(stored)")
            case (.failure, .failure): break
            // Read as stored: the same value, whichever notation the stored form used for a float.
            case (.success(let value), .failure)
                where value.preferenceValue.floatNotationResolved == stored.floatNotationResolved && stored.mentionsNullMarker:
                break
            default: Issue.record("seed \(seed): \(stored): direct \(direct), Codable \(reference)")
            }
        }
    }

    @Test func integersAndFloatsStayApart() {
        #expect(JSONValue.int(2).preferenceValue == .int(2))
        #expect(JSONValue.double(2.5).preferenceValue == .double(2.5))
        #expect(JSONValue.double(2).preferenceValue == ["$float": "2.0"])
        #expect(JSONValue.double(-0.0).preferenceValue == ["$float": "-0.0"])
        #expect(JSONValue.double(.infinity).preferenceValue == ["$float": "inf"])
        #expect(JSONValue(preferenceValue: ["$float": "2.0"]) == .double(2))
        #expect(JSONValue(preferenceValue: .int(2)) == .int(2))
        guard case .double(let nan) = JSONValue(preferenceValue: JSONValue.double(.nan).preferenceValue) else {
            Issue.record("NaN did not come back as a float")
            return
        }
        #expect(nan.isNaN)
    }

    @Test func nilAndNestedTables() throws {
        #expect(JSONValue.null.preferenceValue == .string("$null"))
        #expect(JSONValue(preferenceValue: .string("$null")) == .null)
        let nested: JSONValue = .object(["name": .string("a"), "tags": .array([.int(1), .double(1.5), .null]), "inner": .object(["x": .double(3)])])
        #expect(nested.preferenceValue == ["name": "a", "tags": [1, 1.5, "$null"], "inner": ["x": ["$float": "3.0"]]])
        #expect(JSONValue(preferenceValue: nested.preferenceValue) == nested)
    }

    /// What the direct reading leaves to the `Codable` decoding: a real with an integral value written
    /// without the marker (by another program) reads as an integer, as it always did; data and dates
    /// are not script values.
    @Test func unfamiliarFormsReadAsBefore() throws {
        #expect(JSONValue(preferenceValue: .double(3)) == nil)
        #expect(try PreferenceCodec<JSONValue>().decode(.double(3)) == (try PreferenceValue.double(3).decode(JSONValue.self)))
        #expect(throws: (any Error).self) { try PreferenceCodec<JSONValue>().decode(.data(Data([1]))) }
        #expect(JSONValue(preferenceValue: ["$float": "2.0", "other": 1]) == nil)
    }
}

