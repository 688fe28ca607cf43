/// The address of a tweak: a feature and one of its variables.
///
/// Both parts always travel together, so two features with a variable of the same name never collide
/// (JustTweak's user-defaults provider keyed by variable alone and did).
public struct TweakKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The feature, for example "checkout".
    public let feature: String
    /// The variable within the feature, for example "enabled".
    public let variable: String

    /// Creates a key.
    package init(feature: String, variable: String) {
        self.feature = feature
        self.variable = variable
    }

    /// Orders by feature, then variable.
    public static func < (lhs: TweakKey, rhs: TweakKey) -> Bool {
        (lhs.feature, lhs.variable) < (rhs.feature, rhs.variable)
    }

    /// "feature.variable".
    public var description: String { "\(feature).\(variable)" }
}

extension TweakKey {
    /// The key one string names, as OFREP, flagd files and `envscript tweak get KEY` write a flag:
    /// `feature.variable` split at the first dot, or — without a dot — feature and variable both `key`
    /// (JustTweak's convention for a feature's own switch: `"checkout": {"checkout": ...}`).
    public init(flagKey key: String) {
        if let dot = key.firstIndex(of: "."), dot != key.startIndex, key.index(after: dot) != key.endIndex {
            self.init(feature: String(key[..<dot]), variable: String(key[key.index(after: dot)...]))
        } else {
            self.init(feature: key, variable: key)
        }
    }

    /// The one string that names this key (the inverse of ``init(flagKey:)``): the feature alone when
    /// the variable has its name, else `feature.variable`.
    package var flagKey: String { feature == variable ? feature : "\(feature).\(variable)" }
}
