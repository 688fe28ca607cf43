import Dispatch
import Foundation
import Locking

/// Calls a handler when a file changes on disk, by comparing what `stat(2)` says of it (device, inode,
/// size, modification time to the nanosecond) every `interval` on a background queue — as
/// `envscript run --watch` notices changes: an editor that saves by renaming a new file over the old one
/// is noticed, and so is a file that appears or disappears. Readers of the file pay nothing per read.
/// Stops when released or ``stop()``ped.
final class FileChangePoller: Sendable {
    private static let queue = DispatchQueue(label: "envscript.tweaks.file-poller", qos: .utility)
    private let timer: Locked<(any DispatchSourceTimer)?>

    /// Starts watching `path` from what it is now; `handler` runs on a background queue after each change.
    init(path: String, interval: Duration, handler: @escaping @Sendable () -> Void) {
        let last = Locked(FileStamp(path: path))
        let timer = DispatchSource.makeTimerSource(queue: Self.queue)
        timer.setEventHandler {
            let now = FileStamp(path: path)
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

    /// Stops watching.
    func stop() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }

    deinit { stop() }
}
