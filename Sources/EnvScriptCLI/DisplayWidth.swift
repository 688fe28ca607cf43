/// How many columns of a terminal text takes, counted per grapheme cluster (what a reader sees as one
/// character), as terminals draw it: East Asian wide and fullwidth characters and emoji take 2 columns,
/// combining marks and other zero-width characters 0, everything else 1.
///
/// Counting `String.count` (one per character) puts a column out of line after every wide character;
/// counting UTF-16 units, as `padding(toLength:withPad:startingAt:)` does, cuts a character outside the
/// Basic Multilingual Plane in half.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one grapheme cluster takes: 2 when it is drawn as an emoji (an emoji-presentation
    /// character, or any emoji followed by U+FE0F) or starts with a wide character, else 1 — or 0 when
    /// it is made of zero-width characters only.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let base = scalars.first(where: { !isZeroWidth($0) }) else { return 0 }
        if scalars.contains(where: \.properties.isEmojiPresentation) { return 2 }
        if scalars.contains("\u{FE0F}") && scalars.contains(where: \.properties.isEmoji) { return 2 }
        return isWide(base) ? 2 : 1
    }

    /// `text` followed by spaces up to `width` columns (unchanged when it is as wide or wider).
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    /// Combining marks (variation selectors among them), format characters (the zero-width joiner and
    /// space, direction marks) and the Hangul medial and final jamo, which join the character before them.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return (0x1160...0x11FF).contains(scalar.value)
        }
    }

    /// East Asian Wide and Fullwidth characters (Unicode's EastAsianWidth W and F, less the emoji, which
    /// `isEmojiPresentation` finds).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        wideRanges.contains { $0.contains(scalar.value) }
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi radicals, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,    // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK strokes, enclosed CJK
        0x3400...0x4DBF,    // CJK unified ideographs extension A
        0x4E00...0x9FFF,    // CJK unified ideographs
        0xA000...0xA4CF,    // Yi
        0xA960...0xA97F,    // Hangul Jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut, Khitan
        0x18D00...0x18D08,
        0x1AFF0...0x1B2FF,  // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B to F, compatibility supplement
        0x30000...0x3FFFD,  // CJK extensions G and H
    ]
}
