/// A bookkeeping file written in full before a change moves anything, waiting under a temporary name in
/// the folder of the file it replaces (paths relative to the home).
///
/// A change whose records were written only after its moves could run out of space (or meet a write
/// error) half way, with the home's entries already moved; it would then have to write again to undo
/// itself, which fails for the same reason. Staged first, every record the change needs is on disk
/// before the first move, and putting it in place is a `rename(2)` within one folder, which needs no
/// free space. Undoing the change only removes the staged files.
struct StagedFile: Codable, Sendable, Equatable {
    /// The file it replaces: `state.json` or a container's `container.json`.
    var path: String
    /// Where it waits: `.<name>.tmp-XXXXXX` in the same folder.
    var stagedAt: String

    /// Why this is not a staged bookkeeping file a journal may name, or nil when it is: both paths stay
    /// inside the bookkeeping, in one folder, the target is a bookkeeping record and the staged name is
    /// a temporary file's.
    var pathProblem: String? {
        let target = PathComponents.of(path)
        let staged = PathComponents.of(stagedAt)
        let isRecord = target == [HomeLayout.bookkeepingName, "state.json"]
            || (target.count == 4 && Array(target.prefix(2)) == [HomeLayout.bookkeepingName, "containers"]
                && target[3] == "container.json")
        guard Journal.staysInHome(path), Journal.staysInHome(stagedAt), isRecord,
              staged.count == target.count, staged.dropLast() == target.dropLast(),
              let name = staged.last, name.hasPrefix("." + target.last! + ".tmp-")
        else {
            return "it would put '\(stagedAt)' in place of '\(path)', which is not a staged bookkeeping record"
        }
        return nil
    }
}
