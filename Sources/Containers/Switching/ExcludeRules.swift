/// The paths of the live home that stay in place across switches, given as path-suffix rules.
///
/// A rule is a relative path such as `a.plist` or `Library/Preferences/x.plist`. It matches an entry
/// whose path relative to the home ends with the rule's components, compared as whole components:
/// `a.plist` matches `a.plist` and `x/a.plist` but not `data.plist`. Empty components and `.` are
/// ignored, so `/a.plist` and `./a.plist` mean `a.plist`. A rule that matches a folder keeps the whole
/// folder.
struct ExcludeRules: Sendable, Equatable {
    /// Each rule split into components, without empty rules.
    let rules: [[String]]

    init(_ texts: [String]) {
        rules = texts
            .map { PathComponents.of($0, omittingEmpty: true).filter { $0 != "." } }
            .filter { !$0.isEmpty }
    }

    var isEmpty: Bool { rules.isEmpty }

    /// Whether the entry at `components` (relative to the home) is excluded.
    func matches(_ components: [String]) -> Bool {
        rules.contains { rule in
            rule.count <= components.count && components.suffix(rule.count).elementsEqual(rule)
        }
    }
}
