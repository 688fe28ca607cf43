import Foundation
package import Preferences

extension PreferenceValue {
    /// A random value of any shape a property list holds, `depth` levels of arrays and dictionaries at
    /// most, favouring the edges: integral and non-integral reals, extreme integers, the strings the
    /// property-list coders give a meaning (`$null`), dictionaries holding a `$float` marker.
    package static func random(depth: Int, using generator: inout SeededRandom) -> PreferenceValue {
        let kinds = depth > 0 ? 9 : 7
        switch Int.random(in: 0..<kinds, using: &generator) {
        case 0: return .bool(Bool.random(using: &generator))
        case 1: return .int(randomInteger(using: &generator))
        case 2: return .double(randomReal(using: &generator))
        case 3: return .string(randomText(using: &generator))
        case 4: return .data(Data((0..<Int.random(in: 0...6, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case 5: return .date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator))))
        case 6:
            // A float marker, well-formed or not, alone or among other keys.
            var entries: [String: PreferenceValue] = ["$float": Bool.random(using: &generator) ? .string("\(randomReal(using: &generator))") : .string("x")]
            if Bool.random(using: &generator) { entries["other"] = .int(1) }
            return .dictionary(entries)
        case 7: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in PreferenceValue.random(depth: depth - 1, using: &generator) })
        default:
            var entries: [String: PreferenceValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                entries[randomText(using: &generator)] = PreferenceValue.random(depth: depth - 1, using: &generator)
            }
            return .dictionary(entries)
        }
    }

    /// An integer, often at an edge.
    package static func randomInteger(using generator: inout SeededRandom) -> Int {
        [0, 1, -1, .max, .min, Int.random(in: -1000...1000, using: &generator), Int.random(in: .min ... .max, using: &generator)]
            .randomElement(using: &generator)!
    }

    /// A finite real: integral, fractional, tiny, huge or negative zero.
    package static func randomReal(using generator: inout SeededRandom) -> Double {
        [0.0, -0.0, 2.0, -3.5, 1e300, 5e-324, 0.1, Double(Int.random(in: -1000...1000, using: &generator)),
         Double.random(in: -1e6...1e6, using: &generator)].randomElement(using: &generator)!
    }

    /// A string, sometimes empty, marked, or beyond ASCII.
    package static func randomText(using generator: inout SeededRandom) -> String {
        ["", "$null", "$float", "a", "héllo", "1.5", "key \(Int.random(in: 0...99, using: &generator))", "🍐"]
            .randomElement(using: &generator)!
    }

    /// Whether the string `$null` appears anywhere in this value, as a string or a dictionary key: the
    /// one place where Foundation's property-list decoder refuses what its encoder wrote, and the
    /// direct conversions read it as stored instead.
    package var mentionsNullMarker: Bool {
        switch self {
        case .string(let text): return text == PreferenceValue.nullMarker
        case .array(let values): return values.contains { $0.mentionsNullMarker }
        case .dictionary(let entries):
            return entries[PreferenceValue.nullMarker] != nil || entries.values.contains { $0.mentionsNullMarker }
        default: return false
        }
    }

    /// This value with every float written in the `{"$float": "text"}` notation of script values (a
    /// one-key dictionary whose text is a number) written as the number itself, so two stored forms of
    /// the same script value compare equal.
    package var floatNotationResolved: PreferenceValue {
        switch self {
        case .array(let values): return .array(values.map(\.floatNotationResolved))
        case .dictionary(let entries):
            if entries.count == 1, case .string(let text)? = entries["$float"], let number = Double(text) {
                return .double(number)
            }
            return .dictionary(entries.mapValues(\.floatNotationResolved))
        default: return self
        }
    }
}
