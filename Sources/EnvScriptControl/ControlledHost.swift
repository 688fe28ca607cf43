package import AppState
package import Containers
package import EnvScriptOperations
package import Foundation
package import Logging
package import Tweaks

/// What the control plane needs of the host it serves: its engines, the operations every front door
/// shares, and its lock. `any ControlledHost` is the one host; the control plane sits below it (the runtime
/// starts it when the `Control` trait is on), so it knows the host only through this.
///
/// A host is not `Sendable` (its Lua state is used by one thread at a time): the plane reaches it only
/// through ``ControlHost``, inside ``withLockWhileOpen(_:)`` — or, to take part in another process's
/// change, through the thread-safe engines alone.
package protocol ControlledHost: AnyObject {
    /// The containers of the host's home.
    var containers: AppContainer { get }
    /// The container operations the Lua module, the routes and the command line share.
    var containerOperations: ContainerOperations { get }
    /// The flags through the host's provider stack.
    var tweaks: TweakManager { get }
    /// Application state and dependencies, in the active container.
    var application: Application { get }
    /// The identifier of the application the host runs for.
    var appID: String { get }
    /// The home the host's containers switch.
    var home: URL { get }
    /// Where the plane reports what goes wrong.
    var logger: Logger { get }
    /// Whether the host is closing (or closed): the plane then refuses work.
    var isClosing: Bool { get }
    /// Whether another thread waits for the host's lock.
    var hasLockWaiters: Bool { get }
    /// Runs `body` holding the host's lock, when the host is open and not closing; nil, having run
    /// nothing, otherwise.
    func withLockWhileOpen<T>(_ body: () throws -> T) throws -> T?
    /// Reloads the stores after another process wrote to them.
    func synchronizeStores() throws
    /// Runs the start-up scripts again and puts them in force whole, or not at all (call without the lock).
    func reloadStartupScripts() throws -> ScriptReloadReport
    /// Calls `observer` after every write of this host to the stores, on the writing thread.
    func observeStoreWrites(_ observer: @escaping @Sendable () -> Void)
}
