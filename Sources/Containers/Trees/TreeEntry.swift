/// One entry of a folder tree as `TreeWalker` finds it: what it is, where it is relative to the
/// walked folder, and what a copy needs to make it again.
package struct TreeEntry: Sendable, Equatable {
    /// What an entry is. FIFOs, sockets and devices are never entries: a walk refuses them.
    package enum Kind: String, Sendable, Codable, Equatable {
        /// A folder.
        case directory
        /// A regular file.
        case file
        /// A symbolic link, never followed.
        case symbolicLink = "symlink"
    }

    /// The path relative to the walked folder, components joined with `/`.
    package let path: String
    /// What the entry is.
    package let kind: Kind
    /// The permission bits (`0o7777` at most); 0 for symbolic links, whose own mode means nothing on Linux.
    package let mode: UInt16
    /// A file's size in bytes; 0 for folders and links.
    package let size: Int64
    /// What a symbolic link points to, as written in the link (never resolved).
    package let linkTarget: String?
    /// For the second and later names of a hard-linked file: the path of the first one the walk met.
    package let hardLinkOf: String?
    /// The entry's path on disk, to read a file's content.
    package let absolutePath: String

    /// Creates an entry; the properties of the same names say what each argument is.
    package init(
        path: String, kind: Kind, mode: UInt16, size: Int64 = 0, linkTarget: String? = nil,
        hardLinkOf: String? = nil, absolutePath: String
    ) {
        self.path = path
        self.kind = kind
        self.mode = mode
        self.size = size
        self.linkTarget = linkTarget
        self.hardLinkOf = hardLinkOf
        self.absolutePath = absolutePath
    }
}
