package import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What Linux's `/proc` tells of processes and file locks, for tests that wait until another thread or
/// process has reached a point. Each answer is a state that lasts (a thread blocked on a lock, CPU time
/// spent), never a moment, so a test thread starved for a while still sees it.
package enum ProcessInspection {
    /// The child processes of `pid` (those its main thread started).
    package static func children(of pid: pid_t) -> [pid_t] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The CPU time `pid` has used so far, user and system, all its threads together; nil once it has
    /// gone. Counted in clock ticks (10 ms): a process waiting for input spends none.
    package static func cpuTime(of pid: pid_t) -> Duration? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = text.range(of: ")", options: .backwards) else { return nil }
        // After "pid (comm)": state is field 3, utime 14, stime 15.
        let fields = text[end.upperBound...].split(separator: " ")
        guard fields.count > 13, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
        let ticksPerSecond = Int64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        return .milliseconds((user + system) * 1000 / ticksPerSecond)
    }

    /// Whether a thread or process is blocked waiting for a `flock(2)` lock on the file at `path`: a
    /// `->` line of `/proc/locks` naming the file's inode. It stays true until the holder lets go.
    package static func someoneWaitsForFileLock(onFileAt path: String) -> Bool {
        var file = stat()
        guard stat(path, &file) == 0,
              let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return false }
        // "1: -> FLOCK  ADVISORY  WRITE 2071 fe:00:16237796 0 EOF": the device as the kernel numbers it
        // (which a stacked file system may show otherwise than stat(2)), so only the inode is compared.
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            guard fields.count > 5, fields[1] == "->", fields[2] == "FLOCK" else { return false }
            return fields.contains { field in
                let parts = field.split(separator: ":")
                return parts.count == 3 && UInt64(parts[2]) == UInt64(file.st_ino)
            }
        }
    }
}
