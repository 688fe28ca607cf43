import Foundation
import Testing

extension MountedFileSystem {
    /// Mounts the file system again read-only (`mount -o remount,ro`): what it holds stays readable,
    /// and every write fails with `EROFS`. ``unmount()`` works as before.
    package func remountReadOnly() throws {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/mount"), ["-o", "remount,ro", url.path], in: URL(fileURLWithPath: "/"),
            environment: ProcessInfo.processInfo.environment, timeout: 60)
        guard outcome.status == 0 else {
            throw Failure(description: "mount -o remount,ro \(url.path) failed (status \(outcome.status)): \(outcome.standardError)")
        }
    }
}
