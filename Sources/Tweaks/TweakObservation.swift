import Preferences
import Synchronization

/// Keeps an observer registered: ``remove()`` unregisters it, and so does dropping the last reference.
public final class TweakObservation: Sendable {
    private let onRemove: Mutex<(@Sendable () -> Void)?>

    /// Creates an observation that runs `onRemove` once, on ``remove()`` or when released.
    public init(onRemove: @escaping @Sendable () -> Void) {
        self.onRemove = Mutex(onRemove)
    }

    /// Unregisters the observer; calling it again does nothing.
    public func remove() {
        let action = onRemove.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// Keeps an observation of an ``ObserverList`` (a preferences-style observation) as a tweak one.
    convenience init(_ observation: PreferencesObservation) {
        self.init { observation.cancel() }
    }

    deinit { remove() }
}
