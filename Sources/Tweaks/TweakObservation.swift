public import Preferences

/// Keeps an observer registered: `remove()` unregisters it, and so does
/// dropping the last reference. The observation type of the preferences the overrides live in.
public typealias TweakObservation = PreferencesObservation

extension PreferencesObservation {
    /// An observation that runs `onRemove` once, on ``remove()`` or when released.
    package convenience init(onRemove: @escaping @Sendable () -> Void) {
        self.init(onCancel: onRemove)
    }

    /// Unregisters the observer; calling it again does nothing. The same as `cancel()`.
    public func remove() {
        cancel()
    }
}
