import Locking

/// Where a container's entries are while an ``AppContainer/readContents(of:operation:_:)-(Container,_,_)`` holds the
/// home: the live home for the active container, its stash otherwise.
package struct ContainerContents: Sendable {
    /// The container read.
    package let container: Container
    /// Whether `data` is the live home (the container is the active one).
    package let isLive: Bool
    /// The folder holding the container's entries.
    package let data: String
    /// The folder holding its entries hidden behind excluded entries of the live home, when it has any.
    package let hidden: String?
    let excludeRules: ExcludeRules

    /// Whether an entry of `data`, given by its path components, is not the container's: the
    /// bookkeeping of the live home and its excluded entries.
    package func skips(_ components: [String]) -> Bool {
        guard isLive else { return false }
        return (components.count == 1 && HomeLayout.isReserved(topLevelName: components[0]))
            || excludeRules.matches(components)
    }

    /// Walks the container's entries: those of `data` as they are, then those of `hidden` under `hidden/`.
    ///
    /// The temporary files of atomic writes (`.<name>.tmp-XXXXXX`: a store's writer at work, or one that
    /// was killed) are left out: they are not the container's data, and an archive never carries them.
    package func walk(_ visit: (_ entry: TreeEntry, _ isHidden: Bool) throws -> Void) throws {
        func visitData(_ entry: TreeEntry, isHidden: Bool) throws {
            let name = entry.path.split(separator: "/").last.map(String.init) ?? ""
            if entry.kind == .file, entry.hardLinkOf == nil, WriterTemporaryFile.isTemporary(name) { return }
            try visit(entry, isHidden)
        }
        // A container never filled (DEFAULT before its first switch away) has no folder yet.
        if try FileSystem.kind(at: data) == .directory {
            try TreeWalker.walk(data, skip: skips) { try visitData($0, isHidden: false) }
        }
        if let hidden { try TreeWalker.walk(hidden) { try visitData($0, isHidden: true) } }
    }
}
