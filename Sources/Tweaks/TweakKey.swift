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
    public init(feature: String, variable: String) {
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
