import Containers
import Foundation
import Preferences
import Locking

/// The ``Preferences/StoreCoordinator`` of a host's stores: the home's stores lock, and fencing by the
/// container this process last took part in switching to.
///
/// The host remembers which container its stores read (its *view*). It follows the live container
/// whenever it takes part in a switch (``followLiveFile()``). Should the home be switched by a
/// process it did not hear from, its writes go on landing in the container it read, now waiting in
/// its stash, and are refused only when that container was deleted.
final class ContainerStoreCoordinator: StoreCoordinator {
    private let containers: AppContainer
    /// The container the stores read; nil: the live one, adopted at the next locked access.
    private let view = Locked<UUID?>(nil)
    /// Told (under the stores lock, so it must return at once) after each access that may write.
    private let writeObserver = Locked<(@Sendable () -> Void)?>(nil)

    init(containers: AppContainer) throws {
        self.containers = containers
        let live = try containers.epoch.activeContainer
        view.withLock { $0 = live }
    }

    /// Sets the closure told after each access that may have written a store.
    func observeWrites(_ observer: (@Sendable () -> Void)?) {
        writeObserver.withLock { $0 = observer }
    }

    /// Writes always reach the container they read.
    var fencesWrites: Bool { true }

    /// Makes the stores follow the container live now (after a switch or clean this host took part in):
    /// the preferences call it on reload, once the changes made before the switch are written.
    func followLiveFile() {
        view.withLock { $0 = nil }
    }

    func withLock<Result>(
        forLiveFile liveURL: URL, writing: Bool, _ body: (StoreLocation) throws -> Result
    ) throws -> Result {
        defer { if writing { writeObserver.withLock { $0 }?() } }
        return try containers.withStoresLock(writing: writing) { epoch in
            let viewed = view.withLock { view in
                if view == nil { view = epoch.activeContainer }
                return view!
            }
            if viewed == epoch.activeContainer {
                return try body(StoreLocation(url: liveURL, isLive: true))
            }
            guard let path = try containers.currentPath(ofLivePath: liveURL.path, readIn: viewed, under: epoch) else {
                throw PreferencesError.writeRefused(
                    path: liveURL.path,
                    reason: "this process read it in container \(viewed.uuidString), which another process deleted (the home is now at \(epoch)); nothing was written")
            }
            return try body(StoreLocation(url: URL(fileURLWithPath: path), isLive: false))
        }
    }
}
