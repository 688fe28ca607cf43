/// The names close to a mistyped one, for "did you mean ...?": a field of a tweaks file, a flag, a
/// subcommand of the command line.
package enum NearNames {
    /// The names of `candidates` within a few edits of `name` (case aside), nearest first, at most
    /// `limit` of them; `name` itself is never suggested.
    ///
    /// A candidate is near when at most 2 edits (an insertion, a deletion or a change of a character)
    /// turn one into the other, or 1 when both have 4 characters or fewer, where 2 edits make almost
    /// anything near: `buton_color` → `button_color`, `activte` → `activate`, `Titel` → `Title`.
    package static func suggestions(for name: String, among candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        let lowered = name.lowercased()
        var scored: [(name: String, distance: Int)] = []
        for candidate in Set(candidates) where candidate != name {
            let distance = Self.distance(candidate.lowercased(), lowered)
            let longer = max(candidate.count, name.count)
            if distance <= (longer <= 4 ? 1 : 2) { scored.append((candidate, distance)) }
        }
        scored.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return scored.prefix(limit).map(\.name)
    }

    /// "; did you mean 'a'?" or "; did you mean 'a' or 'b'?", empty without suggestions; `quote` puts
    /// each name in its marks (none for flag keys, which read as `feature.variable`).
    package static func didYouMean(_ suggestions: [String], quote: String = "'") -> String {
        guard let last = suggestions.last else { return "" }
        let quoted = suggestions.map { quote + $0 + quote }
        let list = suggestions.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quote + last + quote
        return "; did you mean \(list)?"
    }

    /// The edit distance (Levenshtein) of two short names.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        // row[j]: the distance from the first i characters of a to the first j of b.
        var row = Array(0...b.count)
        for (i, character) in a.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for j in b.indices {
                let above = row[j + 1]
                row[j + 1] = min(above + 1, row[j] + 1, diagonal + (character == b[j] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
