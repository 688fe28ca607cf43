package import Foundation

/// A generated source file: its name and contents, written only when its contents change.
package struct GeneratedFile: Sendable, Hashable {
    /// What ``write(to:)`` did.
    package struct WriteResult: Sendable, Hashable {
        /// The file's location.
        package var url: URL
        /// True when the file was written; false when it already held these contents and was left alone
        /// (so its modification time, and the builds that depend on it, are untouched).
        package var changed: Bool
    }

    /// The file's name, such as `GeneratedTweakAccessor.swift`.
    package var name: String
    /// The Swift source.
    package var contents: String

    /// Creates a file.
    package init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }

    /// Writes the file into `directory` (created if missing) unless a file there already holds exactly
    /// these contents; a write replaces the file atomically.
    ///
    /// - Throws: ``AccessorGenerationError`` of kind `writeFailed`.
    @discardableResult
    package func write(to directory: URL) throws -> WriteResult {
        let url = directory.appendingPathComponent(name, isDirectory: false)
        let data = Data(contents.utf8)
        if let existing = try? Data(contentsOf: url), existing == data {
            return WriteResult(url: url, changed: false)
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw AccessorGenerationError(
                kind: .writeFailed, file: url.path, message: "cannot write: \((error as NSError).localizedDescription)")
        }
        return WriteResult(url: url, changed: true)
    }
}
