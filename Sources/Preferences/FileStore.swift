import JSONValues
package import Foundation

/// A folder of whole files, one per key, for values too large for a ``PreferencesStore``:
/// `<home>/Library/Application Support/<appID>/<key>`.
///
/// Every write is atomic (see `AtomicFile`), so a reader sees the old file or the new one. Nothing is
/// cached: the folder lives in the live app home and is swapped with the container, so reads always
/// see the active container's files. Keys are arbitrary strings; characters that are unsafe in a file
/// name are percent-encoded, so two keys never share a file and no key escapes the folder.
package final class FileStore: Sendable {
    /// The folder holding the files.
    package let folderURL: URL

    /// The folder of `appID`'s files under `home`: `<home>/Library/Application Support/<appID>`.
    package static func folderURL(home: URL, appID: String) -> URL {
        home.appendingPathComponent("Library/Application Support", isDirectory: true)
            .appendingPathComponent(appID, isDirectory: true)
    }

    /// Creates the file store of `appID` in the live app home `home`; the folder is made on first write.
    package convenience init(home: URL, appID: String) {
        self.init(folderURL: Self.folderURL(home: home, appID: appID))
    }

    /// Creates a file store over an explicit folder; it is made on first write.
    package init(folderURL: URL) {
        self.folderURL = folderURL
    }

    /// The file that holds `key`.
    ///
    /// - Throws: ``PreferencesError/Code/invalidKey`` for an empty key or one too long for a file name.
    package func url(forKey key: String) throws -> URL {
        guard !key.isEmpty else { throw PreferencesError.invalidKey(key: key, reason: "a key must not be empty") }
        let name = Self.fileName(forKey: key)
        guard name.utf8.count <= 200 else {
            throw PreferencesError.invalidKey(
                key: key, reason: "it needs \(name.utf8.count) bytes as a file name; use a key under 200 bytes")
        }
        return folderURL.appendingPathComponent(name, isDirectory: false)
    }

    /// The bytes stored under `key`, or nil.
    package func data(forKey key: String) throws -> Data? {
        try AtomicFile.read(url(forKey: key))
    }

    /// Stores `data` under `key`, atomically.
    ///
    /// - Parameter permissions: the file's mode (by default `0o600`: only this user may read it).
    package func write(_ data: Data, forKey key: String, permissions: mode_t = 0o600) throws {
        try AtomicFile.write(data, to: url(forKey: key), permissions: permissions)
    }

    /// Removes the file of `key`; removing an absent key does nothing.
    package func removeValue(forKey key: String) throws {
        let url = try url(forKey: key)
        do {
            try FileManager.default.removeItem(at: url)
        } catch CocoaError.fileNoSuchFile {
            return
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return }
            throw PreferencesError.writeFailed(path: url.path, step: "remove", reason: "\(error)")
        }
    }

    /// The keys that have a file, sorted.
    package func keys() throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folderURL.path)
        } catch {
            if !FileManager.default.fileExists(atPath: folderURL.path) { return [] }
            throw PreferencesError.readFailed(path: folderURL.path, reason: "\(error)")
        }
        // Names starting with "." are temporary files of writes in progress: an encoded key never starts so.
        return names.filter { !$0.hasPrefix(".") }.compactMap { $0.removingPercentEncoding }.sorted()
    }

    /// Encodes `value` as JSON and stores it under `key`.
    package func encode<T: Encodable>(_ value: T, forKey key: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.userInfo[JSONValue.keepsNumberKinds] = true
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw PreferencesError.unsupportedValue(key: key, reason: "\(error)")
        }
        try write(data, forKey: key)
    }

    /// Decodes the JSON stored under `key` as `T`, or returns nil when there is none.
    ///
    /// - Throws: ``PreferencesError/Code/decodingFailed`` naming the file.
    package func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        let url = try url(forKey: key)
        guard let data = try AtomicFile.read(url) else { return nil }
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[JSONValue.keepsNumberKinds] = true
            return try decoder.decode(T.self, from: data)
        } catch {
            throw PreferencesError.decodingFailed(key: key, path: url.path, reason: "\(error)")
        }
    }

    /// Percent-encodes every byte outside `[A-Za-z0-9_-]` and `.` except in the first position,
    /// so names never start with "." (no hidden files, no "..") and never contain "/".
    static func fileName(forKey key: String) -> String {
        var name = ""
        for (index, byte) in key.utf8.enumerated() {
            let safe = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D || (byte == 0x2E && index > 0)
            if safe {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                name += String(format: "%%%02X", byte)
            }
        }
        return name
    }
}
