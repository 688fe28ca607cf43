import Foundation

/// The folder part of a path as given: `lib/main.lua` → `lib`, `/x` → `/`, and `""` for a bare name
/// such as `d`. (Foundation's `deletingLastPathComponent` crashes on a one-character path on Linux.)
func folderPart(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
    let folder = path[..<slash]
    return folder.isEmpty ? "/" : String(folder)
}

/// Whether `path` names a folder (through symbolic links), as the commands that take a file or a folder
/// tell them apart.
func isFolder(_ path: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
}
