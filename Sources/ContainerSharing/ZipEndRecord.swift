import Foundation

/// Looks for a zip archive's end-of-central-directory record where the format puts it: in the last
/// 22 bytes of the file, or before a comment of at most 65,535 bytes.
///
/// ZIPFoundation looks for it one `fseek` and `fread` per byte from the end back to the start of the
/// file: a file that is not a zip cost it about 0.4 s of CPU per MiB, under the locks of whoever was
/// importing. This reads the last 64 KiB once; only a file that has the record goes on to ZIPFoundation,
/// which then finds it within those same bytes.
enum ZipEndRecord {
    /// `PK\u{5}\u{6}`.
    static let signature: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
    /// The size of the record without its comment.
    static let size = 22
    /// The longest comment the record may be followed by.
    static let maximumCommentSize = 65_535

    /// Whether the file at `url` has the record's signature where the record may start.
    ///
    /// - Throws: ``ArchiveError/Code/unreadable`` when the file cannot be read.
    static func isPresent(in url: URL) throws -> Bool {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw ArchiveError.unreadable(archive: url.path, reason: "cannot open it (\(error.localizedDescription))")
        }
        defer { try? handle.close() }
        let tail: Data
        do {
            let length = try handle.seekToEnd()
            guard length >= UInt64(size) else { return false }
            let window = min(length, UInt64(size + maximumCommentSize))
            try handle.seek(toOffset: length - window)
            tail = try handle.read(upToCount: Int(window)) ?? Data()
        } catch {
            throw ArchiveError.unreadable(archive: url.path, reason: "cannot read it (\(error.localizedDescription))")
        }
        let bytes = [UInt8](tail)
        guard bytes.count >= size else { return false }
        // The last place a record may start is `size` bytes from the end; the first, a full comment before.
        var start = bytes.count - size
        while start >= 0 {
            if bytes[start] == signature[0], bytes[start + 1] == signature[1],
               bytes[start + 2] == signature[2], bytes[start + 3] == signature[3] {
                return true
            }
            start -= 1
        }
        return false
    }
}
