package import Foundation
import Preferences

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and adding to a key file of the tweak cipher (the text form of ``TweakCipherKeyring``).
///
/// A key file is a regular file of the user running the program, which nobody else may write; nobody
/// else may read it either, unless every key in it is a demo key (a demo key file is committed beside
/// examples, and a checkout gives it the mode of any other file). Those checks are made on the opened
/// file before a byte of it is read, so a file that is not a key file is never read, and errors about
/// its lines never quote them. Reading and adding lock the file (`flock`), so two `tweak keygen` at
/// once both land and a reader never sees half a line.
package enum TweakKeyFile {
    /// The comment at the top of a new key file.
    static let header = """
        # EnvScript tweak keys: one per line, "ID BASE64-OF-32-BYTES", "demo" after a key that is no secret.
        # Every key opens what it sealed; the last one seals new values. Keep this file private (mode 600).

        """

    /// The keys in `url`, checked (see the type's documentation).
    package static func read(_ url: URL) throws -> TweakCipherKeyring {
        let file = try open(url.path, flags: O_RDONLY)
        try lock(file.descriptor, shared: true, path: url.path)
        let ring = try TweakCipherKeyring.parse(try contents(of: file, path: url.path), origin: url.path)
        try checkReaders(of: file, path: url.path, ring: ring)
        return ring
    }

    /// Adds a new random key at the end of the key file `url` — creating it (and its folder), readable by
    /// its owner only, when it does not exist — so that it seals from now on.
    ///
    /// - Parameters:
    ///   - url: the key file.
    ///   - id: the new key's id; by default `k` and the first number no key of the file uses.
    ///   - isDemo: marks the key as a demo key, which is no secret.
    /// - Returns: the new key and the whole ring now in the file.
    /// - Throws: ``TweakCipherError``: an id already in the file, a file others may read or write (a
    ///   demo key may go into a file others may read), or a file that cannot be read or written.
    @discardableResult
    package static func addGeneratedKey(to url: URL, id: String? = nil, isDemo: Bool = false) throws -> (key: TweakCipherKey, ring: TweakCipherKeyring) {
        if let id { try TweakCipherKey.validate(id: id) }
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw TweakCipherError.keyFileIO(path: path, operation: "create the folder of", reason: "\(error)")
            }
        }
        // Never through a symbolic link: the new file is created where it is named, mode 600.
        let file = try open(path, flags: O_RDWR | O_CREAT | O_NOFOLLOW)
        let fd = file.descriptor
        try lock(fd, shared: false, path: path)
        let text = try contents(of: file, path: path)
        var ring = try TweakCipherKeyring.parse(text, origin: path)
        let newID = id ?? defaultID(after: ring)
        let key = try TweakCipherKey.generate(id: newID, isDemo: isDemo)
        try ring.append(key, origin: path)
        try checkReaders(of: file, path: path, ring: ring)

        var addition = text.isEmpty ? header : ""
        if !text.isEmpty && !text.hasSuffix("\n") { addition += "\n" }
        addition += try TweakCipherKeyring([key]).text
        let bytes = Array(addition.utf8)
        guard lseek(fd, 0, SEEK_END) >= 0 else {
            throw TweakCipherError.keyFileIO(path: path, operation: "append to", reason: lastError())
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw TweakCipherError.keyFileIO(path: path, operation: "append to", reason: lastError())
            }
            offset += written
        }
        guard fsync(fd) == 0 else {
            throw TweakCipherError.keyFileIO(path: path, operation: "sync", reason: lastError())
        }
        return (key, ring)
    }

    /// `k1`, `k2`, ...: the first such id the ring does not use.
    private static func defaultID(after ring: TweakCipherKeyring) -> String {
        var number = ring.keys.count + 1
        while ring.key(id: "k\(number)") != nil { number += 1 }
        return "k\(number)"
    }

    /// Opens `path` as a `PrivateFile`: checked before anything is read.
    private static func open(_ path: String, flags: Int32) throws -> PrivateFile {
        do {
            return try PrivateFile(path: path, flags: flags)
        } catch .writableByOthers(let mode) {
            throw TweakCipherError.keyFilePermissions(path: path, mode: mode)
        } catch .failed(let operation, let reason) {
            throw TweakCipherError.keyFileIO(path: path, operation: operation, reason: reason)
        } catch {
            throw TweakCipherError.keyFileIO(path: path, operation: "use", reason: error.reason)
        }
    }

    /// Refuses a file that others may read while it holds a key that is a secret.
    private static func checkReaders(of file: borrowing PrivateFile, path: String, ring: TweakCipherKeyring) throws {
        if file.isReadableByOthers && !ring.holdsOnlyDemoKeys {
            throw TweakCipherError.keyFilePermissions(path: path, mode: file.mode)
        }
    }

    private static func lock(_ fd: Int32, shared: Bool, path: String) throws {
        while flock(fd, shared ? LOCK_SH : LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw TweakCipherError.keyFileIO(path: path, operation: "lock", reason: lastError())
        }
    }

    /// The whole file as UTF-8 text (a key file is small; more than 1 MiB is refused).
    private static func contents(of file: borrowing PrivateFile, path: String) throws -> String {
        var bytes: [UInt8]
        do {
            bytes = try file.readAll(limit: 1 << 20)
        } catch {
            throw TweakCipherError.invalidKeys(origin: path, line: 0, reason: "\(error.reason): this is not a key file")
        }
        defer { bytes.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) } }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TweakCipherError.invalidKeys(origin: path, line: 0, reason: "not UTF-8 text: this is not a key file")
        }
        return text
    }

    private static func lastError() -> String {
        PrivateFile.lastError()
    }
}
