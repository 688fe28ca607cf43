/// How every report shows the text of a test — its names, its message, its traceback — so that no
/// test can break the report's format or the terminal it is read in.
///
/// - A control character (C0 other than tab and line feed, DEL, C1), U+FFFE and U+FFFF show as
///   `\u{…}` with the code point in hex: NUL as `\u{0}`, the escape of coloured output as `\u{1B}`.
///   Nothing is dropped: what follows a NUL is still there.
/// - A name is shown on one line: a line feed in it shows as `\n`.
/// - Bytes that are not UTF-8 have already become U+FFFD (�) when the text reached Swift.
///
/// A report's own format adds its rules on top (XML entities, TAP's `\#`); see ``XMLEscaping``,
/// ``TAPReporter`` and ``YAMLText``.
package enum ReportText {
    /// `text` with every control character shown as `\u{…}`; tabs and line feeds stay.
    package static func showingControls(_ text: String) -> String {
        rewritten(text) { _ in nil }
    }

    /// `text` on one line: as ``showingControls(_:)``, and a line feed shows as `\n`.
    package static func oneLine(_ text: String) -> String {
        rewritten(text) { $0 == "\n" ? "\\n" : nil }
    }

    /// Whether `scalar` is one that reports show as `\u{…}` instead of as itself.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// `\u{1B}` for the escape character: the code point in hex, as Swift writes it.
    static func visible(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// `text` with hidden scalars made visible and the rest as `special` says (`nil`: unchanged).
    private static func rewritten(_ text: String, special: (Unicode.Scalar) -> String?) -> String {
        guard text.unicodeScalars.contains(where: { isHidden($0) || special($0) != nil }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replacement = special(scalar) {
                result += replacement
            } else if isHidden(scalar) {
                result += visible(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
