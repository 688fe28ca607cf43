/// Copies a folder tree through a `TreeWriter`: what ``AppContainer/clone(container:name:description:)``
/// does with a container's folders. Hard links stay hard links within the copy.
enum TreeCopier {
    /// Copies the entries under `source` into `writer` below the folder `destination` (relative to the
    /// writer's root, already made).
    static func copy(
        _ source: String, into writer: TreeWriter, at destination: String, skip: ([String]) -> Bool = { _ in false }
    ) throws {
        try TreeWalker.walk(source, skip: skip) { entry in
            let target = destination + "/" + entry.path
            switch entry.kind {
            case .directory:
                try writer.makeDirectory(target, mode: entry.mode)
            case .symbolicLink:
                try writer.makeSymbolicLink(target, target: entry.linkTarget ?? "")
            case .file:
                if let first = entry.hardLinkOf {
                    try writer.makeHardLink(target, to: destination + "/" + first)
                } else {
                    try writer.copyFile(from: entry.absolutePath, to: target, mode: entry.mode)
                }
            }
        }
    }
}
