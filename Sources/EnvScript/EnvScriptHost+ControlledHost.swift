#if Control
import EnvScriptControl
package import Foundation

/// The host as its control plane knows it (the `Control` trait): the engines, the shared operations and
/// the host's lock.
extension EnvScriptHost: ControlledHost {
    package var home: URL { configuration.home }

    package var isClosing: Bool { closing.withLock { $0 } }

    package var hasLockWaiters: Bool { lock.hasWaiters }

    package func withLockWhileOpen<T>(_ body: () throws -> T) throws -> T? {
        try lock.withLock {
            guard lua.isOpen, !isClosing else { return nil }
            return try body()
        }
    }

    package func observeStoreWrites(_ observer: @escaping @Sendable () -> Void) {
        storeCoordinator.observeWrites(observer)
    }
}
#endif
