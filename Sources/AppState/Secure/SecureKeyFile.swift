import Crypto
import Foundation
import Preferences

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the key file of secure state, creating it on first use: 32 random bytes, mode 0600, outside the
/// application's home.
enum SecureKeyFile {
    /// The key sizes AES-GCM accepts, in bytes.
    static let validSizes: Set<Int> = [16, 24, 32]

    /// The key in `url`, created when missing.
    ///
    /// - Throws: ``AppStateError/Code/keyFileInsideHome``, ``AppStateError/Code/keyFilePermissions``,
    ///   ``AppStateError/Code/keyFileInvalid`` or ``AppStateError/Code/io``.
    static func loadOrCreate(at url: URL, home: URL) throws -> SymmetricKey {
        try checkOutside(home: home, url)
        if let key = try read(url) { return key }
        try create(url)
        // Read back rather than trust what we wrote: a concurrent creator may have won the race.
        guard let key = try read(url) else {
            throw AppStateError.keyFileInvalid(path: url.path, reason: "it vanished right after being created")
        }
        return key
    }

    /// Refuses a key file inside the home, where a switch would move it with the containers' data.
    static func checkOutside(home: URL, _ url: URL) throws {
        if url.isInside(home) {
            throw AppStateError.keyFileInsideHome(path: url.path, home: home.path)
        }
    }

    /// The key in `url`, or nil when there is no file. The file is checked before it is read (see
    /// `PrivateFile`), and only its owner may read it.
    private static func read(_ url: URL) throws -> SymmetricKey? {
        let path = url.path
        let file: PrivateFile
        do {
            file = try PrivateFile(path: path, flags: O_RDONLY)
        } catch .missing {
            return nil
        } catch .writableByOthers(let mode) {
            throw AppStateError.keyFilePermissions(path: path, mode: mode)
        } catch {
            throw AppStateError.keyFileInvalid(path: path, reason: error.reason)
        }
        if file.isReadableByOthers { throw AppStateError.keyFilePermissions(path: path, mode: file.mode) }
        guard validSizes.contains(file.size) else {
            throw AppStateError.keyFileInvalid(path: path, reason: "it holds \(file.size) bytes; a key has 16, 24 or 32")
        }
        var bytes: [UInt8]
        do {
            bytes = try file.readAll(limit: file.size)
        } catch {
            throw AppStateError.keyFileInvalid(path: path, reason: error.reason)
        }
        defer { bytes.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) } }
        guard bytes.count == file.size else {
            throw AppStateError.keyFileInvalid(path: path, reason: "it changed while being read")
        }
        return SymmetricKey(data: bytes)
    }

    /// Writes a new random key to a private temporary file and links it into place, so the key file
    /// appears complete or not at all, and a concurrent creator's key is never overwritten.
    private static func create(_ url: URL) throws {
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw AppStateError.io(path: folder, operation: "create the key folder", reason: "\(error)")
        }
        var template = Array("\(folder)/.\(url.lastPathComponent).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // mode 0600
        guard fd >= 0 else {
            throw AppStateError.io(path: path, operation: "create a temporary key file for", reason: lastError())
        }
        let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(temporaryPath) }
        do {
            defer { close(fd) }
            let written = SymmetricKey(size: .bits256).withUnsafeBytes { buffer in
                Foundation.write(fd, buffer.baseAddress!, buffer.count)
            }
            guard written == 32, fchmod(fd, 0o600) == 0, fsync(fd) == 0 else {
                throw AppStateError.io(path: path, operation: "write the new key to", reason: lastError())
            }
        }
        if link(temporaryPath, path) != 0, errno != EEXIST {
            throw AppStateError.io(path: path, operation: "link the new key file into", reason: lastError())
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private static func lastError() -> String {
        PrivateFile.lastError()
    }
}
