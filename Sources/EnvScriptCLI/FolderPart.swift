/// The folder part of a path as given: `lib/main.lua` → `lib`, `/x` → `/`, and `""` for a bare name
/// such as `d`. (Foundation's `deletingLastPathComponent` crashes on a one-character path on Linux.)
func folderPart(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
    let folder = path[..<slash]
    return folder.isEmpty ? "/" : String(folder)
}
