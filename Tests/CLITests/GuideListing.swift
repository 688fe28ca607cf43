import Foundation

/// The Swift listings of one guide (a Markdown file) made into one program a compiler can check, as a
/// reader would put them together: declarations (imports, types, extensions, functions) at file scope,
/// every other line, in the guide's order, in the body of one function, so a later listing sees the
/// values an earlier one made. `#sourceLocation` points each line back at the guide, so the compiler's
/// errors name the Markdown file and line.
///
/// A listing that starts with `// Package.swift` is a manifest excerpt and is left out.
struct GuideListing {
    /// The guide.
    let guide: URL
    /// How many listings were taken.
    private(set) var listingCount = 0
    private var declarations: [String] = []
    private var statements: [String] = []

    /// Reads the guide's ```swift blocks.
    init(guide: URL) throws {
        self.guide = guide
        let lines = try String(contentsOf: guide, encoding: .utf8).components(separatedBy: "\n")
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("```swift") else { index += 1; continue }
            let first = index + 1
            var end = first
            while end < lines.count, !lines[end].hasPrefix("```") { end += 1 }
            add(listing: Array(lines[first..<end]), startingAtLine: first + 1)
            index = end + 1
        }
    }

    /// The program: `prelude` (what the guide takes for granted), then the listings.
    func program(prelude: String) -> String {
        // Every listing line comes with its location; `#sourceLocation()` gives the lines made here back
        // to the generated file.
        let declarations = declarations.isEmpty ? "" : declarations.joined(separator: "\n") + "\n#sourceLocation()"
        let statements = statements.isEmpty ? "" : statements.joined(separator: "\n") + "\n#sourceLocation()"
        return """
        \(prelude)
        \(declarations)
        func readerFollowsTheGuide() async throws {
        \(statements)
        }

        """
    }

    private mutating func add(listing: [String], startingAtLine firstLine: Int) {
        guard listing.first?.hasPrefix("// Package.swift") != true else { return }
        listingCount += 1
        var depth = 0
        var inDeclaration: Bool?
        for (offset, line) in listing.enumerated() {
            let wasInDeclaration = inDeclaration
            if depth == 0 && !line.trimmingCharacters(in: .whitespaces).isEmpty {
                inDeclaration = Self.startsDeclaration(line)
            }
            let declaration = inDeclaration ?? false
            // A location where a run of lines for one part begins (never inside an expression: a directive
            // between a line and its continuation would break it).
            if declaration != wasInDeclaration || offset == 0 {
                let directive = "#sourceLocation(file: \"\(guide.path)\", line: \(firstLine + offset))"
                if declaration { declarations.append(directive) } else { statements.append(directive) }
            }
            if declaration { declarations.append(line) } else { statements.append(line) }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
        }
    }

    /// Whether a line at brace depth 0 begins a declaration that belongs at file scope.
    private static func startsDeclaration(_ line: String) -> Bool {
        let starts = ["import ", "extension ", "struct ", "final class ", "class ", "enum ", "protocol ", "func ", "@"]
        return starts.contains { line.hasPrefix($0) }
    }
}
