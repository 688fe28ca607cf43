import Foundation
import Locking

/// Notices that files changed by comparing what `stat(2)` says of them (device, inode, size,
/// modification time to the nanosecond) every `interval`: an editor that saves by writing a new file
/// and renaming it over the old one is noticed as well as one that writes in place, and so is a file
/// that appears or disappears.
struct FileChangeWatch {
    /// What `stat` said of one file; nil fields when it did not exist.
    struct Stamp: Equatable {
        var device: UInt64?
        var inode: UInt64?
        var size: Int64?
        var modified: timespec?

        init(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim
        }

        static func == (lhs: Stamp, rhs: Stamp) -> Bool {
            lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
                && lhs.modified?.tv_sec == rhs.modified?.tv_sec && lhs.modified?.tv_nsec == rhs.modified?.tv_nsec
        }
    }

    let paths: [String]
    let interval: Duration
    private var stamps: [Stamp]

    /// Starts watching `paths` from what they are now.
    init(paths: [String], interval: Duration = .milliseconds(100)) {
        self.paths = paths
        self.interval = interval
        stamps = paths.map(Stamp.init(path:))
    }

    /// How many of the paths named a file or a folder when last looked at: at the start, or at the
    /// change ``waitForChange(stopped:)`` last reported.
    var existingCount: Int { stamps.count { $0.inode != nil } }

    /// Waits until one of the files changes (true) or `stopped()` says to stop (false).
    mutating func waitForChange(stopped: () -> Bool) -> Bool {
        while !stopped() {
            Thread.sleep(forTimeInterval: interval.inSeconds)
            let now = paths.map(Stamp.init(path:))
            if now != stamps {
                stamps = now
                return true
            }
        }
        return false
    }
}
