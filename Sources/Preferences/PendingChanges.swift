/// The changes a ``PreferencesStore`` has not flushed yet, key by key: a key's whole new value, or —
/// for a key that merges entry by entry — the entries changed inside its dictionary, by path.
///
/// Keyed by the key itself, so recording the change of one key hashes one string and allocates
/// nothing. The entry paths of a key never overlap (none is a prefix of another), so applying them in
/// any order gives the same result.
struct PendingChanges: Equatable, Sendable {
    /// What the next flush writes for one key.
    enum Change: Equatable, Sendable {
        /// The key's whole value; nil removes it.
        case value(PreferenceValue?)
        /// Values at paths inside the key's dictionary (nil removes the entry); no path is a prefix of
        /// another.
        case entries([[String]: PreferenceValue?])
    }

    private var changes: [String: Change] = [:]

    var isEmpty: Bool { changes.isEmpty }

    /// Records that `key` went from `old` to `new`; with `depth` > 0 and dictionaries on both sides,
    /// only the entries that differ, `depth` levels deep.
    mutating func record(key: String, from old: PreferenceValue?, to new: PreferenceValue?, depth: Int) {
        if old == new { return }
        guard depth > 0, let oldEntries = Self.entries(of: old), let newEntries = Self.entries(of: new) else {
            changes[key] = .value(new)
            return
        }
        var paths: [[String]: PreferenceValue?]
        switch changes[key] {
        case .value?:
            // A whole value already waits for this key: the new whole value replaces it.
            changes[key] = .value(new)
            return
        case .entries(let existing)?:
            paths = existing
        case nil:
            paths = [:]
        }
        Self.recordEntries(from: oldEntries, to: newEntries, path: [], depth: depth - 1, into: &paths)
        changes[key] = .entries(paths)
    }

    /// Applies every change to `values`.
    func apply(to values: inout [String: PreferenceValue]) {
        for (key, change) in changes {
            switch change {
            case .value(let value):
                values[key] = value
            case .entries(let paths):
                var entries = values[key]?.dictionaryValue ?? [:]
                for (path, value) in paths { Self.apply(value, at: path[...], to: &entries) }
                values[key] = entries.isEmpty ? nil : .dictionary(entries)
            }
        }
    }

    /// Forgets the changes of `written` that are still pending as they were; a key changed again
    /// since stays, with its newer change.
    mutating func removeWritten(_ written: PendingChanges) {
        for (key, change) in written.changes where changes[key] == change {
            changes.removeValue(forKey: key)
        }
    }

    // MARK: Entries

    /// The entries of a value that can merge entry by entry: a dictionary's, or none for a missing
    /// value; nil for any other value, which can only be replaced whole.
    private static func entries(of value: PreferenceValue?) -> [String: PreferenceValue]? {
        guard let value else { return [:] }
        return value.dictionaryValue
    }

    private static func recordEntries(
        from old: [String: PreferenceValue], to new: [String: PreferenceValue], path: [String], depth: Int,
        into paths: inout [[String]: PreferenceValue?]
    ) {
        for key in Set(old.keys).union(new.keys) where old[key] != new[key] {
            let entryPath = path + [key]
            if depth > 0, let oldEntries = entries(of: old[key]), let newEntries = entries(of: new[key]) {
                recordEntries(from: oldEntries, to: newEntries, path: entryPath, depth: depth - 1, into: &paths)
            } else {
                record(new[key], at: entryPath, into: &paths)
            }
        }
    }

    /// Records `value` at `path`, keeping the paths free of prefixes: a change waiting at a shorter
    /// path takes this one into its value, and changes waiting deeper inside `path` are superseded.
    private static func record(
        _ value: PreferenceValue?, at path: [String], into paths: inout [[String]: PreferenceValue?]
    ) {
        for prefixLength in stride(from: path.count - 1, to: 0, by: -1) {
            let prefix = Array(path[..<prefixLength])
            guard let waiting = paths[prefix] else { continue }
            var entries = waiting?.dictionaryValue ?? [:]
            apply(value, at: path[prefixLength...], to: &entries)
            paths[prefix] = .some(entries.isEmpty ? nil : .dictionary(entries))
            return
        }
        for existing in paths.keys where existing.count > path.count && existing.starts(with: path) {
            paths.removeValue(forKey: existing)
        }
        paths[path] = .some(value)
    }

    /// Sets (or, with nil, removes) the value at `path` in `values`, making dictionaries on the way and
    /// removing those a removal leaves empty.
    private static func apply(
        _ value: PreferenceValue?, at path: ArraySlice<String>, to values: inout [String: PreferenceValue]
    ) {
        guard let head = path.first else { return }
        if path.count == 1 {
            values[head] = value
            return
        }
        var inner = values[head]?.dictionaryValue ?? [:]
        apply(value, at: path.dropFirst(), to: &inner)
        values[head] = inner.isEmpty ? nil : .dictionary(inner)
    }
}
