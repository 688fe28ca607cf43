import Containers
import Preferences

/// What differs between two containers, or a container and an archive: entries added, removed and
/// changed, and the keys of the application's preferences (tweak overrides by `feature.variable`,
/// stored state by key) added, removed and changed. "Added" means present in the second, not the first.
public struct ContainerDiff: Sendable, Equatable {
    /// One entry that differs. The path is relative to the container's entries, or to those hidden
    /// behind excluded entries of the live home when ``isHidden`` is set.
    public struct EntryChange: Sendable, Equatable {
        public var path: String
        public var isHidden: Bool
        /// The kind in the second container (the first for a removed entry).
        public var kind: TreeEntry.Kind
        /// Its size in the first, nil when absent there or not a file.
        public var sizeBefore: Int64?
        /// Its size in the second, nil when absent there or not a file.
        public var sizeAfter: Int64?
    }

    /// One preference key that differs.
    public struct KeyChange: Sendable, Equatable {
        /// Which store it belongs to.
        public enum Kind: String, Sendable {
            /// A tweak override, named `feature.variable`.
            case tweak
            /// A key of stored state.
            case state
        }

        /// The property-list file, relative to the container.
        public var file: String
        public var kind: Kind
        public var name: String
        public var before: PreferenceValue?
        public var after: PreferenceValue?
    }

    /// What the first and second sides are, as the user named them.
    public var first: String
    public var second: String
    public var added: [EntryChange] = []
    public var removed: [EntryChange] = []
    public var changed: [EntryChange] = []
    public var keysAdded: [KeyChange] = []
    public var keysRemoved: [KeyChange] = []
    public var keysChanged: [KeyChange] = []

    /// Whether nothing differs (names and metadata aside).
    public var isEmpty: Bool {
        added.isEmpty && removed.isEmpty && changed.isEmpty
            && keysAdded.isEmpty && keysRemoved.isEmpty && keysChanged.isEmpty
    }
}
