/// A text value of a TAP diagnostics block (`key: value` in the YAML between `---` and `...`), written
/// so that YAML parsers and TAP harnesses (Perl's `prove`, which reads a subset of YAML) read back
/// exactly the text given.
///
/// The text is first shown as every report shows it (``ReportText``: controls as `\u{…}`). It is then
/// a literal block (`key: |` and the lines, indented), which reads best, unless its first line is empty
/// or starts with a space or a tab: a block takes its indentation from its first line, so such a text
/// is a double-quoted scalar instead, on one line, with `\\`, `\"`, `\n` and `\t` escaped.
enum YAMLText {
    /// The lines of `key: text` at `indent` spaces.
    static func lines(key: String, _ text: String, indent: Int) -> [String] {
        let shown = ReportText.showingControls(text)
        let pad = String(repeating: " ", count: indent)
        let lines = shown.split(separator: "\n", omittingEmptySubsequences: false)
        if let first = lines.first, let start = first.first, start != " " && start != "\t" {
            return ["\(pad)\(key): |"] + lines.map { "\(pad)  \($0)" }
        }
        return ["\(pad)\(key): \(quoted(shown))"]
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(character)
            }
        }
        return result + "\""
    }
}
