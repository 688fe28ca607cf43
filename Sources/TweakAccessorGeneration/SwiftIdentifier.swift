/// Swift identifiers for generated code: checking names given in files, deriving camel-cased names from
/// tweak keys, and escaping keywords with backticks.
///
/// Only ASCII identifiers are produced or accepted (`[A-Za-z_][A-Za-z0-9_]*`, not `_` alone): Swift's
/// rules for other characters are intricate, and a name that compiles on one toolchain must compile on all.
enum SwiftIdentifier {
    /// Words that must be written in backticks to be used as a name.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
        "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self",
        "Self", "super", "throw", "throws", "true", "try",
    ]

    /// Names no generated member may take even in backticks: `Type` and `Protocol` cannot be read as
    /// static members, and `init`, `self` and `Self` would read as something else.
    static let reservedMemberNames: Set<String> = ["Type", "Protocol", "init", "self", "Self"]

    /// Why `name` is not a valid identifier, or nil when it is (keywords are valid: they get backticks).
    static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "it is empty" }
        if name == "_" { return "'_' alone is not a name" }
        if !isHead(first) {
            return isWordCharacter(first) ? "it starts with a digit" : "it starts with '\(first)'"
        }
        if let bad = name.unicodeScalars.first(where: { !isWordCharacter($0) }) {
            let shown = bad.isASCII && bad.value >= 0x20 && bad.value < 0x7F ? "'\(bad)'" : "U+\(hex(bad.value))"
            return "it contains \(shown); use ASCII letters, digits and underscores"
        }
        return nil
    }

    /// `name` as written in code: in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The lower-camel-cased form of a key such as `tap_to_change_color_enabled` (`tapToChangeColorEnabled`),
    /// or nil when the key has a non-ASCII character or no letter or digit at all.
    ///
    /// Words are separated by any ASCII character other than a letter or digit. The first word loses its
    /// leading capitals, keeping the one that starts a following lower-case word (`MaxItems` → `maxItems`,
    /// `HTTPS_only` → `httpsOnly`, `URLPath` → `urlPath`); later words are capitalised at their first letter,
    /// the rest kept (`max_itemCount` → `maxItemCount`).
    /// A name that would start with a digit gets a leading underscore (`2fa` → `_2fa`).
    static func camelCased(_ key: String) -> String? {
        guard key.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        let words = key.split(whereSeparator: { !isWordCharacter($0.unicodeScalars.first!) || $0 == "_" })
            .map(String.init)
        guard let head = words.first else { return nil }
        let capitals = head.prefix(while: { $0.isUppercase }).count
        let beforeLowercase = head.dropFirst(capitals).first?.isLowercase ?? false
        let lowered = beforeLowercase ? max(1, capitals - 1) : capitals
        var name = head.prefix(lowered).lowercased() + head.dropFirst(lowered)
        for word in words.dropFirst() {
            name += word.prefix(1).uppercased() + word.dropFirst()
        }
        if let first = name.unicodeScalars.first, !isHead(first) { name = "_" + name }
        return name
    }

    private static func isHead(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "_": return true
        default: return false
        }
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_": return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
