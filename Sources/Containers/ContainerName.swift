import Foundation

/// The rules for a container's display name.
///
/// A name is text for people: 1 to 255 characters, not blank, no space (or other white space) at
/// either end, no control characters (newlines, tabs, NUL…), no line or paragraph separators, no
/// noncharacters, no U+FFFD (what bytes that were not UTF-8 become), and not itself a UUID (which would
/// make "name or UUID" lookups ambiguous). Names are unique in a home regardless of case
/// (``differOnlyByCase(_:_:)``). A name never becomes a path: the container's folder is named by its UUID.
enum ContainerName {
    static let maximumLength = 255

    /// Throws ``ContainerError/Code/invalidName`` unless `name` follows the rules.
    static func validate(_ name: String) throws {
        if name.isEmpty {
            throw ContainerError.invalidName(name, reason: "a name must have at least one character")
        }
        if name.count > maximumLength {
            throw ContainerError.invalidName(
                String(name.prefix(40)) + "…",
                reason: "a name has at most \(maximumLength) characters, this one has \(name.count)")
        }
        if name.unicodeScalars.contains("\u{FFFD}") {
            throw ContainerError.invalidName(
                name, reason: "it holds U+FFFD, which stands for bytes that were not valid UTF-8; give the name as UTF-8 text")
        }
        if let refused = name.unicodeScalars.first(where: isRefused) {
            throw ContainerError.invalidName(
                name, reason: "control characters such as \(codePoint(refused)) are not allowed; use printable characters only")
        }
        if name.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            throw ContainerError.invalidName(name, reason: "a name must have a visible character, not only white space")
        }
        if let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
           first.properties.isWhitespace || last.properties.isWhitespace
        {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            throw ContainerError.invalidName(
                name, reason: "a name may not begin or end with white space; did you mean '\(trimmed)'?")
        }
        if UUID(uuidString: name) != nil {
            throw ContainerError.invalidName(
                name, reason: "a name may not be a UUID, since containers are also looked up by UUID")
        }
    }

    /// Whether two names are the same once case is set aside ("Debug" and "DEBUG", "Straße" and
    /// "STRASSE"), so that a home never holds both. Canonically equivalent names (é as one character or
    /// as e and a combining accent) are the same, as for every comparison of Swift strings.
    static func differOnlyByCase(_ name: String, _ other: String) -> Bool {
        folded(name) == folded(other)
    }

    /// `name` with case set aside: upper-casing first turns "ß" into "SS", so it meets "ss".
    private static func folded(_ name: String) -> String {
        name.uppercased().lowercased()
    }

    /// Control characters (C0, DEL, C1), the line and paragraph separators, and noncharacters
    /// (U+FFFE, U+FFFF…): characters that break a line or a table where a name is shown.
    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return scalar.properties.isNoncharacterCodePoint
        }
    }

    /// `U+000A`: a scalar's code point as Unicode writes it.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
