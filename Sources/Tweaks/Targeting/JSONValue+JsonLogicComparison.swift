/// JsonLogic's comparisons, which are JavaScript's: `==` converts between types, `===` does not, and
/// `<` compares two strings as text and anything else as numbers.
extension JSONValue {
    /// JavaScript's `==`: null equals only null; a Boolean is compared as the number 0 or 1; a number
    /// and a string as numbers; an array or object with a primitive through its text. Two arrays or
    /// objects are equal when their elements are (JavaScript compares their identity, which a rule
    /// written in JSON cannot name).
    func looselyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.int(let left), _): return JSONValue.double(Double(left)).looselyEquals(other)
        case (_, .int(let right)): return looselyEquals(.double(Double(right)))
        case (.bool(let left), .bool(let right)): return left == right
        case (.double(let left), .double(let right)): return left == right
        case (.string(let left), .string(let right)): return left == right
        case (.array, .array), (.object, .object): return self == other
        case (.array, .object), (.object, .array): return false
        case (.bool, _): return JSONValue.double(numberValue).looselyEquals(other)
        case (_, .bool): return looselyEquals(.double(other.numberValue))
        case (.double(let left), .string): return left == other.numberValue
        case (.string, .double(let right)): return numberValue == right
        case (.array, _), (.object, _): return JSONValue.string(textValue).looselyEquals(other)
        case (_, .array), (_, .object): return looselyEquals(.string(other.textValue))
        }
    }

    /// JavaScript's `===`: the same type and the same value (numbers by value, so `1 === 1.0`).
    func strictlyEquals(_ other: JSONValue) -> Bool {
        self == other
    }

    /// JavaScript's `<`, `<=`, `>`, `>=` as an ordering: two strings compare as text; otherwise both
    /// sides are read as numbers, and nil means they cannot be ordered (a NaN: every comparison false).
    func relationalOrder(to other: JSONValue) -> Int? {
        if case .string(let left) = self, case .string(let right) = other {
            return left == right ? 0 : (left < right ? -1 : 1)
        }
        // Arrays and objects become text first; two texts compare as text.
        let leftPrimitive = self.primitive, rightPrimitive = other.primitive
        if case .string(let left) = leftPrimitive, case .string(let right) = rightPrimitive {
            return left == right ? 0 : (left < right ? -1 : 1)
        }
        let left = leftPrimitive.numberValue, right = rightPrimitive.numberValue
        if left.isNaN || right.isNaN { return nil }
        return left == right ? 0 : (left < right ? -1 : 1)
    }

    /// Arrays and objects as their text; other values as they are.
    private var primitive: JSONValue {
        switch self {
        case .array, .object: return .string(textValue)
        default: return self
        }
    }
}
