import Foundation
package import Containers
public import JSONValues
import Preferences

/// What differs between two containers, or a container and an archive: entries added, removed and
/// changed, and the keys of the application's preferences (tweak overrides by `feature.variable`,
/// stored state by key) added, removed and changed. "Added" means present in the second, not the first.
public struct ContainerDiff: Sendable, Equatable {
    /// One entry that differs. The path is relative to the container's entries, or to those hidden
    /// behind excluded entries of the live home when `isHidden` is set.
    public struct EntryChange: Sendable, Equatable {
        /// The entry's path, relative to the container (or to the hidden entries).
        public var path: String
        /// Whether the entry is one hidden behind an excluded entry of the live home.
        public var isHidden: Bool
        /// The kind in the second container (the first for a removed entry).
        package var kind: TreeEntry.Kind
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
        /// Whether the key is a tweak override or stored state.
        public var kind: Kind
        /// The key: `feature.variable` for a tweak, the state key otherwise.
        public var name: String
        /// Its value in the first side, nil when absent there.
        public var before: JSONValue?
        /// Its value in the second side, nil when absent there.
        public var after: JSONValue?
    }

    /// What the first and second sides are, as the user named them.
    public var first: String
    /// The second side, as the user named it.
    public var second: String
    /// Entries only in the second side.
    public var added: [EntryChange] = []
    /// Entries only in the first side.
    public var removed: [EntryChange] = []
    /// Entries in both whose kind, mode, size or content differ.
    public var changed: [EntryChange] = []
    /// Preference keys only in the second side.
    public var keysAdded: [KeyChange] = []
    /// Preference keys only in the first side.
    public var keysRemoved: [KeyChange] = []
    /// Preference keys in both with different values.
    public var keysChanged: [KeyChange] = []

    /// Whether nothing differs (names and metadata aside).
    public var isEmpty: Bool {
        added.isEmpty && removed.isEmpty && changed.isEmpty
            && keysAdded.isEmpty && keysRemoved.isEmpty && keysChanged.isEmpty
    }
}

extension ContainerDiff: Encodable {
    private enum CodingKeys: String, CodingKey { case first, second, entries, preferences }
    private enum ChangeKeys: String, CodingKey { case added, removed, changed }

    /// `{"first", "second", "entries": {"added", "removed", "changed"}, "preferences": {...}}`.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(first, forKey: .first)
        try values.encode(second, forKey: .second)
        var entries = values.nestedContainer(keyedBy: ChangeKeys.self, forKey: .entries)
        try entries.encode(added, forKey: .added)
        try entries.encode(removed, forKey: .removed)
        try entries.encode(changed, forKey: .changed)
        var preferences = values.nestedContainer(keyedBy: ChangeKeys.self, forKey: .preferences)
        try preferences.encode(keysAdded, forKey: .added)
        try preferences.encode(keysRemoved, forKey: .removed)
        try preferences.encode(keysChanged, forKey: .changed)
    }
}

extension ContainerDiff.EntryChange: Encodable {
    private enum CodingKeys: String, CodingKey { case path, hidden, kind, sizeBefore, sizeAfter }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(path, forKey: .path)
        if isHidden { try values.encode(true, forKey: .hidden) }
        try values.encode(kind.rawValue, forKey: .kind)
        try values.encodeIfPresent(sizeBefore, forKey: .sizeBefore)
        try values.encodeIfPresent(sizeAfter, forKey: .sizeAfter)
    }
}

extension ContainerDiff.KeyChange: Encodable {
    private enum CodingKeys: String, CodingKey { case file, kind, name, before, after }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(file, forKey: .file)
        try values.encode(kind.rawValue, forKey: .kind)
        try values.encode(name, forKey: .name)
        try values.encodeIfPresent(before, forKey: .before)
        try values.encodeIfPresent(after, forKey: .after)
    }
}

extension JSONValue {
    /// A stored preference as JSON, for a diff: data as Base64 text, a date as ISO 8601 text.
    init(displaying value: PreferenceValue) {
        switch value {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .data(let value): self = .string(value.base64EncodedString())
        case .date(let value): self = .string(ISO8601.string(value))
        case .array(let values): self = .array(values.map(JSONValue.init(displaying:)))
        case .dictionary(let values): self = .object(values.mapValues(JSONValue.init(displaying:)))
        }
    }
}
