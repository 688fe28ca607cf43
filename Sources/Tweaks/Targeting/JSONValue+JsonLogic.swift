/// JsonLogic's reading of JSON values: what a targeting rule computes with.
///
/// A rule computes as JavaScript does, with one kind of number: inside an evaluation every number is a
/// `.double`. Values from a context or a rule's file enter through ``javaScriptNumbers`` (integers
/// widened), and a result leaves through ``ruleResult`` (whole numbers that fit `Int` become `.int`).
extension JSONValue {
    /// This value with every integer widened to a double, as JavaScript reads JSON.
    var javaScriptNumbers: JSONValue {
        switch self {
        case .int(let number): .double(Double(number))
        case .array(let elements): .array(elements.map { $0.javaScriptNumbers })
        case .object(let fields): .object(fields.mapValues { $0.javaScriptNumbers })
        case .null, .bool, .double, .string: self
        }
    }

    /// The flag value a rule's result gives, or nil for a null (a null inside an array or object is left out of
    /// an object and stops an array's conversion). Whole numbers that fit `Int` become `.int`.
    var ruleResult: JSONValue? {
        switch self {
        case .null: return nil
        case .bool, .int: return self
        case .double(let number):
            if let whole = Self.exactInt(number) { return .int(whole) }
            return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements):
            var converted: [JSONValue] = []
            converted.reserveCapacity(elements.count)
            for element in elements {
                guard let value = element.ruleResult else { return nil }
                converted.append(value)
            }
            return .array(converted)
        case .object(let fields): return .object(fields.compactMapValues { $0.ruleResult })
        }
    }

    /// `number` as an `Int` when it is whole and in range.
    static func exactInt(_ number: Double) -> Int? {
        guard number.rounded() == number, abs(number) < 9.2e18 else { return nil }
        return Int(number)
    }

    /// JsonLogic's truthiness (JavaScript's, except that an empty array is false): false for `false`,
    /// `null`, `0`, `NaN`, `""` and `[]`; true for everything else, objects included.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let flag): return flag
        case .double(let number): return number != 0 && !number.isNaN
        case .int(let number): return number != 0
        case .string(let text): return !text.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object: return true
        }
    }

    /// The value as JavaScript's `Number()` reads it: null 0, Booleans 0 and 1, strings parsed (blank
    /// is 0, anything else not a number is NaN), arrays through their text, objects NaN.
    var numberValue: Double {
        switch self {
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .double(let number): return number
        case .int(let number): return Double(number)
        case .string(let text): return Self.parseNumber(text)
        case .array: return Self.parseNumber(textValue)
        case .object: return .nan
        }
    }

    /// JavaScript's reading of a string as a number.
    static func parseNumber(_ text: String) -> Double {
        let trimmed = text.trimmingJavaScriptWhitespace
        if trimmed.isEmpty { return 0 }
        if trimmed == "Infinity" || trimmed == "+Infinity" { return .infinity }
        if trimmed == "-Infinity" { return -.infinity }
        // Swift's parser takes "nan", "inf" and hexadecimal floats, which JavaScript does not.
        guard trimmed.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
            || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return .nan }
        return Double(trimmed) ?? .nan
    }

    /// The value as JavaScript's `String()` writes it (as `cat` joins): null "null", whole numbers
    /// without a fraction, arrays joined by commas (null elements empty), objects "[object Object]".
    var textValue: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .double(let number): return Self.text(of: number)
        case .int(let number): return String(number)
        case .string(let text): return text
        case .array(let elements):
            return elements.map { $0 == .null ? "" : $0.textValue }.joined(separator: ",")
        case .object: return "[object Object]"
        }
    }

    /// A number written as JavaScript writes it, as far as flag rules need: whole numbers without ".0".
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if let whole = exactInt(number) { return String(whole) }
        return String(number)
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space, as JavaScript trims before reading a number.
    fileprivate var trimmingJavaScriptWhitespace: Substring {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return slice
    }
}
