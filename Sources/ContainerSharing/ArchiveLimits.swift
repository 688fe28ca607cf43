/// How much an import may unpack, checked against the manifest before anything is written and
/// against the bytes actually inflated while unpacking, so a zip bomb stops before it fills the disk.
public struct ArchiveLimits: Sendable, Equatable {
    /// The most bytes of file content, all entries together.
    package var maxSize: Int64
    /// The most entries (files, folders and links).
    package var maxFiles: Int

    /// 4 GiB and 200,000 entries: far beyond an application's usual data, far below a full disk.
    public static let standard = ArchiveLimits(maxSize: 4 << 30, maxFiles: 200_000)

    package init(maxSize: Int64, maxFiles: Int) {
        self.maxSize = maxSize
        self.maxFiles = maxFiles
    }
}
