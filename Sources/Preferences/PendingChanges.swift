/// The changes a ``PreferencesStore`` has not flushed yet, as paths into its property list: a key, or a
/// key and the entries inside its dictionary when the key merges entry by entry.
enum PendingChanges {
    /// Records what turned `old` into `new` at `path`, descending `depth` levels into dictionaries.
    static func record(
        from old: PreferenceValue?, to new: PreferenceValue?, path: [String], depth: Int,
        into pending: inout [[String]: PreferenceValue?]
    ) {
        if old == new { return }
        let oldEntries = old.map { $0.dictionaryValue } ?? [:]
        let newEntries = new.map { $0.dictionaryValue } ?? [:]
        if depth > 0, let oldEntries, let newEntries {
            for key in Set(oldEntries.keys).union(newEntries.keys) {
                record(from: oldEntries[key], to: newEntries[key], path: path + [key], depth: depth - 1, into: &pending)
            }
            return
        }
        pending.updateValue(new, forKey: path)
    }

    /// Sets (or, with nil, removes) the value at `path` in `values`, making dictionaries on the way and
    /// removing those a removal leaves empty.
    static func apply(_ value: PreferenceValue?, at path: ArraySlice<String>, to values: inout [String: PreferenceValue]) {
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
