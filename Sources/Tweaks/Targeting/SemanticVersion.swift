/// A semantic version (semver.org 2.0.0) as flagd's `sem_ver` reads it: an optional `v` or `V` prefix,
/// missing minor and patch numbers taken as 0 (`"1.2"` is 1.2.0), pre-release identifiers that order
/// below the release (`2.0.0-alpha < 2.0.0`), build metadata ignored.
struct SemanticVersion: Sendable, Hashable, Comparable {
    /// A dot-separated pre-release identifier: numeric ones order numerically and below text ones.
    enum Identifier: Sendable, Hashable, Comparable {
        case numeric(UInt64)
        case text(String)

        static func < (lhs: Identifier, rhs: Identifier) -> Bool {
            switch (lhs, rhs) {
            case (.numeric(let left), .numeric(let right)): return left < right
            case (.numeric, .text): return true
            case (.text, .numeric): return false
            case (.text(let left), .text(let right)): return Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
            }
        }
    }

    let major: UInt64
    let minor: UInt64
    let patch: UInt64
    /// Empty for a release.
    let preRelease: [Identifier]

    /// The version `text` writes, or nil when it is not one.
    init?(_ text: String) {
        var rest = Substring(text)
        if let first = rest.first, first == "v" || first == "V" { rest = rest.dropFirst() }
        if let plus = rest.firstIndex(of: "+") {
            let build = rest[rest.index(after: plus)...]
            guard Self.isValidIdentifierList(build) else { return nil }
            rest = rest[..<plus]
        }
        var preRelease: [Identifier] = []
        if let dash = rest.firstIndex(of: "-") {
            let tail = rest[rest.index(after: dash)...]
            guard Self.isValidIdentifierList(tail) else { return nil }
            for part in tail.split(separator: ".", omittingEmptySubsequences: false) {
                if part.allSatisfy(\.isASCIIDigit) {
                    guard part == "0" || part.first != "0", let number = UInt64(part) else { return nil }
                    preRelease.append(.numeric(number))
                } else {
                    preRelease.append(.text(String(part)))
                }
            }
            rest = rest[..<dash]
        }
        let numbers = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(numbers.count) else { return nil }
        var parsed: [UInt64] = []
        for number in numbers {
            guard !number.isEmpty, number.allSatisfy(\.isASCIIDigit), number == "0" || number.first != "0",
                let value = UInt64(number)
            else { return nil }
            parsed.append(value)
        }
        while parsed.count < 3 { parsed.append(0) }
        major = parsed[0]
        minor = parsed[1]
        patch = parsed[2]
        self.preRelease = preRelease
    }

    private static func isValidIdentifierList(_ text: Substring) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isASCIIDigit || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "-" }
        }
    }

    static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): return lhs.preRelease.lexicographicallyPrecedes(rhs.preRelease)
        }
    }

    /// flagd's `sem_ver`: `[version, operator, version]` with operator `=`, `!=`, `<`, `<=`, `>`, `>=`,
    /// `^` (same major) or `~` (same major and minor); a version may be text or a number (`1.2`). Null
    /// for anything else: another count of arguments, an unknown operator, a value that is no version.
    static func operate(_ arguments: [JSONValue]) -> JSONValue {
        guard arguments.count == 3, case .string(let op) = arguments[1],
            let left = version(arguments[0]), let right = version(arguments[2])
        else { return .null }
        switch op {
        case "=": return .bool(left == right)
        case "!=": return .bool(left != right)
        case "<": return .bool(left < right)
        case "<=": return .bool(left <= right)
        case ">": return .bool(left > right)
        case ">=": return .bool(left >= right)
        case "^": return .bool(left.major == right.major)
        case "~": return .bool(left.major == right.major && left.minor == right.minor)
        default: return .null
        }
    }

    private static func version(_ value: JSONValue) -> SemanticVersion? {
        switch value {
        case .string(let text): return SemanticVersion(text)
        case .double(let number) where number >= 0: return SemanticVersion(JSONValue.text(of: number))
        default: return nil
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
