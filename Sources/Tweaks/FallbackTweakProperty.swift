/// JustTweak's name for a tweak property with a fallback. Since every ``TweakProperty`` has a required
/// fallback, the two are the same type; use whichever name reads better.
///
/// ```swift
/// @FallbackTweakProperty(fallbackValue: false, feature: "ui", variable: "dark_mode", tweakManager: tweaks)
/// var darkMode: Bool
/// ```
public typealias FallbackTweakProperty<Value: TweakValueConvertible> = TweakProperty<Value>
