public import Containers
public import Foundation
import JSONValues
import Preferences

/// What a ``ContainerDiff`` compares: a container of the home or an exported archive.
public enum DiffOperand: Sendable {
    /// A container of the home, as it is now.
    case container(Container)
    /// An archive made by `export(container:to:)`, read without being imported.
    case archive(URL)

    /// What `text` names for a diff: a container of `containers` (by name or UUID) when one is,
    /// else the archive at that path when a file is there; nil when neither.
    package static func named(_ text: String, in containers: AppContainer) -> DiffOperand? {
        if let container = try? containers.resolve(text) { return .container(container) }
        if FileManager.default.fileExists(atPath: text) { return .archive(URL(fileURLWithPath: text)) }
        return nil
    }

    var label: String {
        switch self {
        case .container(let container): container.name
        case .archive(let url): url.path
        }
    }
}

extension AppContainer {
    /// What differs between `first` and `second` (``ContainerDiff``). Containers are read under one
    /// hold of the home, the active one from the live home after the participants flushed; archives
    /// are checked as an import would check them, and read without unpacking.
    public func diff(_ first: DiffOperand, _ second: DiffOperand, limits: ArchiveLimits = .standard) throws -> ContainerDiff {
        let readers = try [first, second].map { operand -> ArchiveReader? in
            guard case .archive(let url) = operand else { return nil }
            return try ArchiveReader(url: url, limits: limits)
        }
        let containers = [first, second].compactMap { operand -> Container? in
            guard case .container(let container) = operand else { return nil }
            return container
        }
        let diff = try readContents(of: containers, operation: "compare containers") { contents in
            var remaining = contents[...]
            let sides = try zip([first, second], readers).map { operand, reader -> DiffSide in
                if let reader { return DiffSide(reader, label: operand.label) }
                return try DiffSide(remaining.removeFirst(), label: operand.label)
            }
            return try ContainerComparison.compare(sides[0], sides[1])
        }
        return diff
    }
}

/// Compares two ``DiffSide``s into a ``ContainerDiff``.
enum ContainerComparison {
    static let preferencesFolder = "data/Library/Preferences/"

    static func compare(_ first: DiffSide, _ second: DiffSide) throws -> ContainerDiff {
        var diff = ContainerDiff(first: first.label, second: second.label)
        var preferenceFiles: [String] = []
        for path in Set(first.entries.keys).union(second.entries.keys).sorted() {
            let before = first.entries[path]
            let after = second.entries[path]
            let change = ContainerDiff.EntryChange(
                path: String(path.drop { $0 != "/" }.dropFirst()), isHidden: path.hasPrefix("hidden/"),
                kind: (after ?? before)!.kind,
                sizeBefore: before.flatMap { $0.kind == .file ? $0.size : nil },
                sizeAfter: after.flatMap { $0.kind == .file ? $0.size : nil })
            switch (before, after) {
            case (nil, _): diff.added.append(change)
            case (_, nil): diff.removed.append(change)
            case (let before?, let after?):
                guard try differs(before, after) else { continue }
                diff.changed.append(change)
            }
            if path.hasPrefix(preferencesFolder), path.hasSuffix(".plist"), (after ?? before)!.kind == .file {
                preferenceFiles.append(path)
            }
        }
        for path in preferenceFiles {
            try compareKeys(of: path, first, second, into: &diff)
        }
        return diff
    }

    private static func differs(_ before: DiffSide.Facts, _ after: DiffSide.Facts) throws -> Bool {
        guard before.kind == after.kind, before.mode == after.mode else { return true }
        switch before.kind {
        case .directory: return false
        case .symbolicLink: return before.target != after.target
        case .file: return try before.size != after.size || !DiffSide.sameContent(before, after)
        }
    }

    /// Adds the keys of the property list at `path` that differ; a side where it is missing or not a
    /// property list counts as having no keys.
    private static func compareKeys(of path: String, _ first: DiffSide, _ second: DiffSide, into diff: inout ContainerDiff) throws {
        let file = String(path.dropFirst("data/".count))
        let before = flattened(try first.read(path))
        let after = flattened(try second.read(path))
        for key in Set(before.keys).union(after.keys).sorted(by: { ($0.kind.rawValue, $0.name) < ($1.kind.rawValue, $1.name) }) {
            let change = ContainerDiff.KeyChange(
                file: file, kind: key.kind, name: key.name,
                before: before[key].map(JSONValue.init(displaying:)), after: after[key].map(JSONValue.init(displaying:)))
            switch (before[key], after[key]) {
            case (nil, _): diff.keysAdded.append(change)
            case (_, nil): diff.keysRemoved.append(change)
            case (let old?, let new?) where old != new: diff.keysChanged.append(change)
            default: break
            }
        }
    }

    struct KeyName: Hashable {
        var kind: ContainerDiff.KeyChange.Kind
        var name: String
    }

    /// A property list's keys: each tweak override as `feature.variable`, every other key as state.
    private static func flattened(_ data: Data?) -> [KeyName: PreferenceValue] {
        guard let data, let values = try? PreferenceValue.dictionary(fromPropertyList: data) else { return [:] }
        var keys: [KeyName: PreferenceValue] = [:]
        for (key, value) in values {
            guard key == SharedPreferenceKey.tweakOverrides, case .dictionary(let features) = value else {
                keys[KeyName(kind: .state, name: key)] = value
                continue
            }
            for (feature, variables) in features {
                guard case .dictionary(let variables) = variables else {
                    keys[KeyName(kind: .tweak, name: feature)] = variables
                    continue
                }
                for (variable, value) in variables {
                    keys[KeyName(kind: .tweak, name: feature + "." + variable)] = value
                }
            }
        }
        return keys
    }
}
