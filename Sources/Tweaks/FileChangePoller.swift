import Dispatch
import Foundation
import Locking

/// Calls a handler when files change on disk, by comparing what `stat(2)` says of them (device, inode,
/// size, modification time to the nanosecond) every `interval` on a background queue — as
/// `envscript run --watch` notices changes: an editor that saves by renaming a new file over the old one
/// is noticed, and so is a file that appears or disappears. Readers of the files pay nothing per read.
/// Stops when released or ``stop()``ped.
package final class FileChangePoller: Sendable {
    private static let queue = DispatchQueue(label: "envscript.tweaks.file-poller", qos: .utility)
    private let timer: Locked<(any DispatchSourceTimer)?>

    /// Starts watching `paths` from what they are now; `handler` runs on a background queue after each
    /// change of one or more of them.
    package init(paths: [String], interval: Duration, handler: @escaping @Sendable () -> Void) {
        let last = Locked(paths.map(FileStamp.init(path:)))
        let timer = DispatchSource.makeTimerSource(queue: Self.queue)
        timer.setEventHandler {
            let now = paths.map(FileStamp.init(path:))
            let changed = last.withLock { last -> Bool in
                defer { last = now }
                return last != now
            }
            if changed { handler() }
        }
        let nanoseconds = max(Int(interval.inSeconds * 1_000_000_000), 1_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds), leeway: .nanoseconds(nanoseconds / 10))
        timer.resume()
        self.timer = Locked(timer)
    }

    /// Starts watching the file at `path`.
    package convenience init(path: String, interval: Duration, handler: @escaping @Sendable () -> Void) {
        self.init(paths: [path], interval: interval, handler: handler)
    }

    /// Stops watching.
    package func stop() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }

    deinit { stop() }
}
