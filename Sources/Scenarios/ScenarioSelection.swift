/// Which of a run's tests run, how many times, and when the run stops early.
package struct ScenarioSelection: Sendable {
    /// Only tests whose full name contains this text.
    package var filter: String?
    /// Only tests with at least one of these tags (`#slow` in a name, of the test or of a block around it).
    package var tags: Set<String> = []
    /// No test with one of these tags.
    package var excludedTags: Set<String> = []
    /// Stop at the first test that fails (the rest are counted as not run).
    package var failFast = false
    /// How many times the selected tests run, one whole pass after another.
    package var repetitions = 1
    /// With ``failFast``, whether a test failed where this runner cannot see it (another worker of a
    /// run with `--jobs`): no test starts once it answers true.
    package var failedElsewhere: @Sendable () -> Bool = { false }

    package init(
        filter: String? = nil, tags: Set<String> = [], excludedTags: Set<String> = [], failFast: Bool = false,
        repetitions: Int = 1
    ) {
        self.filter = filter
        self.tags = tags
        self.excludedTags = excludedTags
        self.failFast = failFast
        self.repetitions = repetitions
    }

    /// The tags written in `names`: each `#word` (letters, digits, `_` and `-`).
    package static func tags(in names: [String]) -> Set<String> {
        var found: Set<String> = []
        for name in names {
            var rest = Substring(name)
            while let hash = rest.firstIndex(of: "#") {
                let word = rest[rest.index(after: hash)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
                if !word.isEmpty { found.insert(String(word)) }
                rest = rest[rest.index(after: hash)...]
            }
        }
        return found
    }

    /// Whether a test with these names is selected.
    package func selects(names: [String]) -> Bool {
        if let filter, !filter.isEmpty, !names.joined(separator: " ").contains(filter) { return false }
        if tags.isEmpty && excludedTags.isEmpty { return true }
        let own = Self.tags(in: names)
        if !tags.isEmpty && own.isDisjoint(with: tags) { return false }
        return own.isDisjoint(with: excludedTags)
    }
}
