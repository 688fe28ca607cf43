/// Whether one text occurs in another, in time linear in their lengths (Knuth–Morris–Pratt over their
/// UTF-8 bytes), for JsonLogic's `in` over strings: a context attribute and a rule's string may each be
/// megabytes long, and a search that backs up over the text would take their product.
///
/// Bytes rather than characters give JavaScript's answer (`"e\u{301}".includes("e")` is true), where
/// Swift's `String.contains` compares grapheme clusters.
enum SubstringSearch {
    /// Whether `needle` occurs in `haystack`; the empty text occurs in every text.
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        if pattern.isEmpty { return true }
        if pattern.count > haystack.utf8.count { return false }
        // failure[i]: the length of the longest proper prefix of pattern[0...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: pattern.count)
        var length = 0
        for index in 1..<pattern.count {
            while length > 0 && pattern[index] != pattern[length] { length = failure[length - 1] }
            if pattern[index] == pattern[length] { length += 1 }
            failure[index] = length
        }
        var matched = 0
        for byte in haystack.utf8 {
            while matched > 0 && byte != pattern[matched] { matched = failure[matched - 1] }
            if byte == pattern[matched] { matched += 1 }
            if matched == pattern.count { return true }
        }
        return false
    }
}
