/// A JsonLogic value: what a targeting rule computes with.
///
/// Unlike ``TweakValue`` it has a null (JsonLogic's `null`, a missing `var`, `defaultVariant: null`), and
/// one kind of number, as JavaScript has: a `Double`. Values from a context or a flag file are converted
/// at the edges (``init(_:)``, ``tweakValue``).
enum LogicValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([LogicValue])
    case object([String: LogicValue])

    /// The value of a context's attribute (integers widened to `Double`, as JavaScript reads JSON).
    init(_ value: TweakContext.Value) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(LogicValue.init))
        case .object(let fields): self = .object(fields.mapValues(LogicValue.init))
        }
    }

    /// The tweak value of this one, or nil for a null (a null inside an array or object is left out of
    /// an object and stops an array's conversion). Whole numbers that fit `Int` become `.int`.
    var tweakValue: TweakValue? {
        switch self {
        case .null: return nil
        case .bool(let flag): return .bool(flag)
        case .number(let number):
            if let whole = Self.exactInt(number) { return .int(whole) }
            return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements):
            var converted: [TweakValue] = []
            converted.reserveCapacity(elements.count)
            for element in elements {
                guard let value = element.tweakValue else { return nil }
                converted.append(value)
            }
            return .array(converted)
        case .object(let fields): return .object(fields.compactMapValues(\.tweakValue))
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
        case .number(let number): return number != 0 && !number.isNaN
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
        case .number(let number): return number
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
        case .number(let number): return Self.text(of: number)
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

    /// The elements of an array; nil for any other value.
    var arrayElements: [LogicValue]? {
        if case .array(let elements) = self { return elements } else { return nil }
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
