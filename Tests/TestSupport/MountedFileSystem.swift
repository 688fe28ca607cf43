package import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real file system mounted for one test (the tests run as root): a small tmpfs to fill up, or an ext4
/// image on a loop device to mount again through another device. ``unmount()`` it in a `defer`.
package final class MountedFileSystem: @unchecked Sendable {
    /// Where it is mounted: a fresh folder under the system's temporary directory.
    package let url: URL
    /// The ext4 image, for one on a loop device.
    private let image: URL?
    /// The loop devices attached to the image, the one mounted last.
    private var loopDevices: [String] = []

    private init(image: URL?) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mounted-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        self.image = image
    }

    /// A tmpfs of `kibibytes` KiB (mode 700).
    package static func tmpfs(kibibytes: Int) throws -> MountedFileSystem {
        let mounted = try MountedFileSystem(image: nil)
        try Self.command("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(kibibytes)k,mode=0700", "tmpfs", mounted.url.path])
        return mounted
    }

    /// An ext4 file system of `mebibytes` MiB made in an image file and mounted through a loop device.
    package static func ext4Image(mebibytes: Int) throws -> MountedFileSystem {
        let image = FileManager.default.temporaryDirectory.appendingPathComponent("ext4-\(UUID().uuidString).img")
        guard FileManager.default.createFile(atPath: image.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw Failure(description: "cannot create the image file \(image.path)")
        }
        try FileHandle(forWritingTo: image).truncate(atOffset: UInt64(mebibytes) << 20)
        try Self.command("/usr/sbin/mkfs.ext4", ["-q", image.path])
        let mounted = try MountedFileSystem(image: image)
        try mounted.mountThroughNewLoopDevice()
        return mounted
    }

    /// The device number (`st_dev`) of the file system as mounted now.
    package var deviceNumber: UInt64 {
        get throws {
            var info = stat()
            guard stat(url.path, &info) == 0 else { throw Failure(description: "stat \(url.path): \(String(cString: strerror(errno)))") }
            return UInt64(info.st_dev)
        }
    }

    /// Unmounts the image and mounts it again through another loop device (the one used before stays
    /// attached, so the kernel cannot hand it out again): the file system comes back intact with
    /// another device number, as after a power cut a USB disk or a device-mapper volume may.
    package func remountThroughAnotherLoopDevice() throws {
        guard image != nil else { throw Failure(description: "only an image on a loop device can be mounted through another one") }
        try Self.command("/usr/bin/umount", [url.path])
        try mountThroughNewLoopDevice()
    }

    /// Fills the file system with a file outside `url`'s other entries, `filler`, so that exactly
    /// `bytes` (rounded down to whole pages) stay free.
    package func fill(leavingFree bytes: Int) throws {
        let filler = url.appendingPathComponent("filler").path
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "open \(filler): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let allocated = Int(lseek(descriptor, 0, SEEK_END))
        let grow = try freeBytes - bytes / pageSize * pageSize
        if grow > 0 {
            let result = posix_fallocate(descriptor, off_t(allocated), off_t(grow))
            guard result == 0 else { throw Failure(description: "fallocate \(filler): \(String(cString: strerror(result)))") }
        } else if grow < 0 {
            guard ftruncate(descriptor, off_t(max(0, allocated + grow))) == 0 else {
                throw Failure(description: "ftruncate \(filler): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The bytes an unprivileged write could still use.
    package var freeBytes: Int {
        get throws {
            var info = statvfs()
            guard statvfs(url.path, &info) == 0 else { throw Failure(description: "statvfs \(url.path): \(String(cString: strerror(errno)))") }
            return Int(info.f_bavail) * Int(info.f_frsize)
        }
    }

    /// Unmounts the file system, detaches its loop devices and removes the image and the mount point.
    package func unmount() {
        _ = try? Self.command("/usr/bin/umount", [url.path])
        for device in loopDevices { _ = try? Self.command("/usr/sbin/losetup", ["-d", device]) }
        if let image { try? FileManager.default.removeItem(at: image) }
        rmdir(url.path)
    }

    private func mountThroughNewLoopDevice() throws {
        guard let image else { return }
        let device = try Self.command("/usr/sbin/losetup", ["-f", "--show", image.path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        loopDevices.append(device)
        try Self.command("/usr/bin/mount", [device, url.path])
    }

    /// Runs a system command to its end and returns what it printed; a failure throws with its message.
    @discardableResult
    private static func command(_ executable: String, _ arguments: [String]) throws -> String {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: executable), arguments, in: URL(fileURLWithPath: "/"),
            environment: ProcessInfo.processInfo.environment, timeout: 60)
        guard outcome.status == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed (status \(outcome.status)): \(outcome.standardError)")
        }
        return outcome.standardOutput
    }

    /// A mount, fill or unmount that did not work.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }
}
