package import Foundation

/// Where a store's file is to be read or written now, as a ``StoreCoordinator`` resolved it.
package struct StoreLocation: Sendable, Equatable {
    /// The file to read or write.
    package var url: URL
    /// Whether `url` is the live file — the process's view of the home is current — rather than the
    /// place a file read earlier moved to when another process switched the home.
    package var isLive: Bool

    /// A location.
    package init(url: URL, isLive: Bool) {
        self.url = url
        self.isLive = isLive
    }
}

/// Makes the read-modify-write of a store's files safe against other processes, and fences writes
/// made under an outdated view of the home.
///
/// Every read and write of a ``PreferencesStore`` (and of the file state built on `AtomicFile`)
/// happens inside `withLock(forLiveFile:_:)`, which holds a cross-process lock and says where the file
/// that lives at `liveURL` is for this process: the live file itself, or — when the home was switched
/// by a process this one did not hear from — the place the file moved to with the container it was
/// read from. A write therefore always lands in the container whose data it read.
///
/// ``FolderLockCoordinator`` serves files that are never switched; the EnvScript runtime provides one
/// over a home's containers.
package protocol StoreCoordinator: Sendable {
    /// Runs `body` holding the cross-process lock of the file that lives at `liveURL`, with where that
    /// file is now for this process.
    ///
    /// - Parameters:
    ///   - liveURL: where the file lives in the live home.
    ///   - writing: whether `body` may write the file (so that others can be told of it).
    ///   - body: the work done under the lock, given where the file is now for this process.
    /// - Throws: ``PreferencesError/Code/writeRefused`` when the data this process read no
    ///   longer exists anywhere (its container was deleted), and the lock's own errors.
    func withLock<Result>(
        forLiveFile liveURL: URL, writing: Bool, _ body: (StoreLocation) throws -> Result
    ) throws -> Result

    /// Whether a write always reaches the file it read, even after the live file was replaced (a
    /// container switch), so that ``PreferencesStore/reload()`` may still write the changes made
    /// before it. A coordinator without fencing would put them in the new file: they are dropped.
    var fencesWrites: Bool { get }

    /// Makes later accesses use the file live now: called by ``PreferencesStore/reload()`` once the
    /// changes made before it are written.
    func followLiveFile()
}

extension StoreCoordinator {
    /// No fencing: a coordinator says so unless it fences writes.
    package var fencesWrites: Bool { false }
    /// Nothing to do for a coordinator whose files never move.
    package func followLiveFile() {}
}

/// A ``StoreCoordinator`` for files that never move: an exclusive `flock(2)` on the file's folder (made
/// when missing), so every process writing a file of that folder takes turns; files are always live.
package struct FolderLockCoordinator: StoreCoordinator {
    /// A coordinator.
    package init() {}

    package func withLock<Result>(
        forLiveFile liveURL: URL, writing: Bool, _ body: (StoreLocation) throws -> Result
    ) throws -> Result {
        let folder = liveURL.deletingLastPathComponent()
        return try FolderLock.holding(folder) {
            try body(StoreLocation(url: liveURL, isLive: true))
        }
    }
}
