package import Foundation

extension AppContainer {
    /// The epoch of the home now: the active container and the switch generation.
    ///
    /// Reading takes no lock; during another process's switch it may show the epoch before it.
    package var epoch: HomeEpoch {
        get throws {
            let state = try store.activation()
            return HomeEpoch(generation: state.generation, activeContainer: state.activeContainer)
        }
    }

    /// Runs `body` holding the home's stores lock — the cross-process lock every writer of a
    /// container's stores takes around its read-modify-write — with the epoch of the home.
    ///
    /// Switches move entries and record the new active container only while holding this lock, so the
    /// epoch stays true until `body` returns. A switch that a crashed process left half done is
    /// finished first. `body` must not start a change of containers (it would wait for the home lock,
    /// which a switch holds while it waits for store writers); on the thread that holds it, taking the
    /// stores lock again throws ``ContainerError/Code/reentrantOperation``.
    ///
    /// - Parameters:
    ///   - writing: whether `body` may write. A read of a home this process cannot write (a read-only
    ///     file system, no write permission) takes the lock shared (the lock file opened read-only), or
    ///     none where it cannot open the lock file, so that such a home can be read.
    ///   - body: what to do with the stores, given the home's epoch.
    package func withStoresLock<Result>(writing: Bool = true, _ body: (HomeEpoch) throws -> Result) throws -> Result {
        if !writing, let refusal = HomeLock.writeRefusal(layout) {
            return try readingUnwritableHome(lock: layout.storesLock, refusal: refusal) { try body(try epoch) }
        }
        while true {
            let outcome: Result? = try HomeLock.holdingStores(layout) {
                if try layout.journals.contains(where: FileSystem.exists) { return nil }
                return try body(try epoch)
            }
            if let outcome { return outcome }
            // A journal with no switch holding the lock is a crashed switch: finish it, then retry.
            // Without the change serializer: repairing runs no hook, and a store writer must not wait
            // for a runtime lock the switch it may be flushing for already holds.
            try exclusively("finish an interrupted switch", initialize: false, serialized: false) { _ in }
        }
    }

    /// Where the file that was at `path` in the live home, when the container `container` was live,
    /// is now: `path` itself while that container is active under `epoch`, else the same place in its
    /// stash. Call under ``withStoresLock(writing:_:)`` with the epoch it gave.
    ///
    /// - Returns: nil when the container no longer exists (it was deleted), or when `path` is not
    ///   inside the home.
    package func currentPath(ofLivePath path: String, readIn container: UUID, under epoch: HomeEpoch) throws -> String? {
        if container == epoch.activeContainer { return path }
        guard path.hasPrefix(layout.home + "/") else { return nil }
        let relative = String(path.dropFirst(layout.home.count + 1))
        guard try store.container(container) != nil, try FileSystem.exists(layout.containerFolder(container)) else {
            return nil
        }
        // An entry hidden behind an excluded one of the live home waits in `hidden`, not in `data`.
        let hidden = layout.hiddenFolder(container) + "/" + relative
        if try FileSystem.exists(hidden) { return hidden }
        return layout.dataFolder(container) + "/" + relative
    }
}
