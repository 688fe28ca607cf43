public import Foundation
import Locking
public import Preferences

/// The mutable provider of overrides, stored in a container's `PreferencesStore` — so the
/// overrides follow the active container across switches.
///
/// Values are kept under one preference key as a dictionary of features, each a dictionary of variables,
/// so the feature and the variable together address a value (JustTweak keyed by variable alone, and two
/// features with a variable of the same name overwrote each other).
///
/// Changes to the store — through this provider, through the store directly, or found by
/// `PreferencesStore.reload()` after a container switch — are reported to the manager.
public final class OverridesTweakProvider: MutableTweakProvider {
    /// The provider's name (default "overrides").
    public let name: String
    /// The store holding the overrides.
    package let store: PreferencesStore
    /// The preference key whose dictionary holds the overrides.
    package let preferenceKey: String
    /// Whether each set or delete is flushed to disk at once (default true: overrides are rare and
    /// should survive a crash or a short-lived process such as the CLI).
    package let flushesEachChange: Bool
    private let changes = TweakChangeBroadcaster()
    private let storeObservation: PreferencesObservation
    /// Set while ``deleteAll()`` runs, so its removal is reported once, as a whole, not key by key.
    private let isRemovingAll = Locked(false)

    /// Creates the provider over the preferences of `appID` in the app home `home`
    /// (`Library/Preferences/<appID>.plist`), the file an `EnvScriptHost` of the same home keeps its
    /// overrides in.
    public convenience init(home: URL, appID: String, name: String = "overrides") {
        self.init(store: PreferencesStore(home: home, appID: appID), name: name)
    }

    /// Creates the provider over `store`.
    package init(
        store: PreferencesStore, name: String = "overrides", preferenceKey: String = SharedPreferenceKey.tweakOverrides,
        flushesEachChange: Bool = true
    ) {
        self.name = name
        self.store = store
        self.preferenceKey = preferenceKey
        self.flushesEachChange = flushesEachChange
        let changes = self.changes
        let isRemovingAll = self.isRemovingAll
        // Each override is its own value: processes setting different overrides at once all keep theirs.
        store.mergeEntries(ofKey: preferenceKey, depth: 2)
        storeObservation = store.observe(key: preferenceKey) { change in
            let keys = Self.changedKeys(from: change.oldValue, to: change.newValue)
            guard !keys.isEmpty else { return }
            let batch = isRemovingAll.withLock { $0 }
            changes.send(TweakProviderChange(provider: name, keys: batch ? nil : keys))
        }
    }

    /// The override, or nil.
    ///
    /// - Throws: ``TweakError/Code/providerFailed`` when the store cannot be
    ///   read or holds there something no tweak value can be (data or a date).
    public func tweak(feature: String, variable: String) throws -> Tweak? {
        let root = try overrides(feature: feature, variable: variable)
        guard let stored = root[feature]?.dictionaryValue?[variable] else { return nil }
        return Tweak(feature: feature, variable: variable, value: try convert(stored, feature, variable), source: name)
    }

    /// All overrides.
    public func allTweaks() throws -> [Tweak] {
        var tweaks: [Tweak] = []
        for (feature, variables) in try overrides(feature: nil, variable: nil) {
            for (variable, stored) in variables.dictionaryValue ?? [:] {
                tweaks.append(
                    Tweak(feature: feature, variable: variable, value: try convert(stored, feature, variable), source: name))
            }
        }
        return tweaks
    }

    /// Stores an override.
    public func set(_ value: JSONValue, feature: String, variable: String) throws {
        try change(feature: feature, variable: variable, to: value.storedOverride)
    }

    /// Removes an override.
    public func delete(feature: String, variable: String) throws {
        try change(feature: feature, variable: variable, to: nil)
    }

    /// Removes every override in one step, reported to the manager as one change of the whole provider
    /// (observers hear once, not once per override).
    ///
    /// - Returns: how many overrides there were.
    @discardableResult
    package func deleteAll() throws -> Int {
        let count = try allTweaks().count
        try wrap(nil, nil) {
            isRemovingAll.withLock { $0 = true }
            defer { isRemovingAll.withLock { $0 = false } }
            try store.removeValue(forKey: preferenceKey)
            if flushesEachChange { try store.flush() }
        }
        return count
    }

    /// Reports every change of the overrides in the store.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        changes.observe(handler)
    }

    // MARK: Private

    private func change(feature: String, variable: String, to value: PreferenceValue?) throws {
        let key = preferenceKey
        try wrap(feature, variable) {
            try store.update { values in
                var root = values[key]?.dictionaryValue ?? [:]
                var variables = root[feature]?.dictionaryValue ?? [:]
                variables[variable] = value
                root[feature] = variables.isEmpty ? nil : .dictionary(variables)
                values[key] = root.isEmpty ? nil : .dictionary(root)
            }
            if flushesEachChange { try store.flush() }
        }
    }

    private func overrides(feature: String?, variable: String?) throws -> [String: PreferenceValue] {
        try wrap(feature, variable) {
            guard let stored = try store.value(forKey: preferenceKey) else { return [:] }
            guard let root = stored.dictionaryValue else {
                throw TweakError.providerFailed(
                    provider: name, feature: feature, variable: variable,
                    underlying: OverridesShapeError(
                        message: "preference '\(preferenceKey)' in \(store.fileURL.path) is a \(stored.typeName), expected a dictionary of features"))
            }
            return root
        }
    }

    private func convert(_ stored: PreferenceValue, _ feature: String, _ variable: String) throws -> JSONValue {
        guard let value = JSONValue(storedOverride: stored) else {
            throw TweakError.providerFailed(
                provider: name, feature: feature, variable: variable,
                underlying: OverridesShapeError(
                    message: "the override in \(store.fileURL.path) holds data or a date, which no tweak value can; set it again or remove it"))
        }
        return value
    }

    /// Wraps store errors so they name this provider and the tweak.
    private func wrap<R>(_ feature: String?, _ variable: String?, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as TweakError {
            throw error
        } catch {
            throw TweakError.providerFailed(provider: name, feature: feature, variable: variable, underlying: error)
        }
    }

    /// The feature/variable pairs whose value differs between two states of the overrides dictionary.
    static func changedKeys(from old: PreferenceValue?, to new: PreferenceValue?) -> [TweakKey] {
        let before = old?.dictionaryValue ?? [:]
        let after = new?.dictionaryValue ?? [:]
        var keys: [TweakKey] = []
        for feature in Set(before.keys).union(after.keys) {
            let oldVariables = before[feature]?.dictionaryValue ?? [:]
            let newVariables = after[feature]?.dictionaryValue ?? [:]
            for variable in Set(oldVariables.keys).union(newVariables.keys) where oldVariables[variable] != newVariables[variable] {
                keys.append(TweakKey(feature: feature, variable: variable))
            }
        }
        return keys.sorted()
    }
}

/// The overrides preference holds something this provider did not write.
struct OverridesShapeError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
