import Foundation
import Locking
import Tweaks

/// Notices that files changed by comparing what `stat(2)` says of them (device, inode, size,
/// modification time to the nanosecond) every `interval`: an editor that saves by writing a new file
/// and renaming it over the old one is noticed as well as one that writes in place, and so is a file
/// that appears or disappears.
struct FileChangeWatch {
    let paths: [String]
    let interval: Duration
    private var stamps: [FileStamp]

    /// Starts watching `paths` from what they are now.
    init(paths: [String], interval: Duration = .milliseconds(100)) {
        self.paths = paths
        self.interval = interval
        stamps = paths.map(FileStamp.init(path:))
    }

    /// How many of the paths named a file or a folder when last looked at: at the start, or at the
    /// change ``waitForChange(stopped:)`` last reported.
    var existingCount: Int { stamps.count(where: \.exists) }

    /// Waits until one of the files changes (true) or `stopped()` says to stop (false).
    mutating func waitForChange(stopped: () -> Bool) -> Bool {
        while !stopped() {
            Thread.sleep(forTimeInterval: interval.inSeconds)
            let now = paths.map(FileStamp.init(path:))
            if now != stamps {
                stamps = now
                return true
            }
        }
        return false
    }
}
