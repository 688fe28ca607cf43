package import Foundation

extension URL {
    /// Whether this file lies inside `folder` (below it, not the folder itself), with symbolic links of
    /// the existing part of both paths resolved, so a link cannot hide a file in the folder. Used to keep
    /// key files out of a home, where a switch would move them with the containers' data.
    package func isInside(_ folder: URL) -> Bool {
        let folderComponents = folder.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let components = standardizedFileURL.resolvingSymlinksInPath().pathComponents
        return components.count > folderComponents.count
            && Array(components.prefix(folderComponents.count)) == folderComponents
    }
}
