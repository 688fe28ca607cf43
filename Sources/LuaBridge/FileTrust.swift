#if canImport(Glibc)
package import Glibc
#endif

/// Whose files envscript runs code from, as git trusts a repository: by owner. A file in a folder
/// others may write (a shared `/tmp`, a 1777 project folder) may have been put there by any local user.
package enum FileTrust {
    /// Why the file `info` describes is not trusted, or nil when it is: it must belong to this user or to
    /// root, and no user but its owner may change it — or, when `groupMayWrite` (a checkout's files
    /// often are group-writable: a umask of 002, an archive's modes), no user outside its group.
    package static func problem(_ info: stat, groupMayWrite: Bool) -> String? {
        let user = geteuid()
        if info.st_uid != user && info.st_uid != 0 { return "it belongs to another user (uid \(info.st_uid))" }
        let othersWrite = groupMayWrite ? S_IWOTH : (S_IWGRP | S_IWOTH)
        if info.st_mode & othersWrite != 0 { return "users other than its owner may change it" }
        return nil
    }
}
