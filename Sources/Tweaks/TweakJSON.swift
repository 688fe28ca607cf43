package import Foundation
import Preferences

/// Reads tweak documents in JustTweak's format:
///
/// ```json
/// { "feature": { "variable": { "Title": "…", "Description": "…", "Group": "…", "Value": true,
///                              "Encrypted": false, "GeneratedPropertyName": "…" } } }
/// ```
///
/// `Value` is required: a Boolean, a number, a string, or an array or object of those (no null); the
/// other fields are optional and
/// must be strings (`Encrypted` a Boolean). Unknown fields are ignored, so newer files still load
/// (`envscript tweak validate` reports them, and encrypted values that are not text).
/// Every problem is a ``TweakError/Code/invalidJSON`` naming the place.
package enum TweakJSON {
    /// Parses a tweak document. `file` names it in errors (a path or a URL); `source` is put in each
    /// ``Tweak/source``.
    package static func parse(_ data: Data, file: String, source: String = "") throws -> [Tweak] {
        try parseLocated(data, file: file, source: source).map(\.tweak)
    }

    /// Parses a tweak document like ``parse(_:file:source:)``, keeping where each tweak and each of its
    /// fields is, for tools that report problems by line (the accessor generator).
    package static func parseLocated(_ data: Data, file: String, source: String = "") throws -> [LocatedTweak] {
        let reader = TweakDocumentReader(data, file: file, source: source)
        if let first = reader.problems.first { throw first }
        return reader.tweaks
    }

    /// Reads and parses a tweak file.
    ///
    /// - Throws: ``TweakError/Code/readFailed`` or ``TweakError/Code/invalidJSON``.
    package static func load(_ url: URL, source: String = "") throws -> [Tweak] {
        try parse(try contents(of: url), file: url.path, source: source)
    }

    /// The bytes of the file at `url`, or ``TweakError/Code/readFailed`` saying why not in
    /// words ("no such file or folder"): for every reader of tweak files and of their tools' files.
    ///
    /// A file larger than ``maximumFileSize`` is refused before more than that is read (a flag file
    /// is kilobytes; a gigabyte of zeros took 2 GB of memory before its parse error).
    package static func contents(of url: URL, named name: String? = nil) throws(TweakError) -> Data {
        let data: Data?
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumFileSize + 1)
        } catch {
            throw TweakError.readFailed(file: name ?? url.path, reason: FileErrorReason.describe(error))
        }
        let contents = data ?? Data()
        if contents.count > maximumFileSize {
            throw TweakError.readFailed(
                file: name ?? url.path,
                reason: "it is larger than \(maximumFileSize >> 20) MiB, the most a flag file may be")
        }
        return contents
    }

    /// The largest tweak or flagd file read: 16 MiB.
    package static let maximumFileSize = 16 << 20
}
