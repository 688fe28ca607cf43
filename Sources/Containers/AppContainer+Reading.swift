import Foundation

extension AppContainer {
    /// Runs `body` holding the home for a read: exclusively, as a change would, where this process can
    /// write the home (so a switch a crashed process left half done is finished first); under a shared
    /// lock where it cannot — a read-only file system, a home without write permission for this user —
    /// so that such a home can be read (see ``HomeLock/holdingShared(_:_:)``).
    ///
    /// - Throws: ``ContainerError/Code/recoveryFailed`` when a crashed switch left a
    ///   journal in a home this process cannot write.
    func reading<Result: Sendable>(
        _ operation: String, initialize: Bool = true, _ body: () throws -> Result
    ) throws -> Result {
        guard let refusal = HomeLock.writeRefusal(layout) else {
            return try exclusively(operation, initialize: initialize) { _ in try body() }
        }
        return try readingUnwritableHome(lock: layout.lock, refusal: refusal, body)
    }

    /// Runs `body` under a shared lock of `lock` (the home's lock or its stores lock) in a home this
    /// process cannot write for `refusal`.
    ///
    /// - Throws: ``ContainerError/Code/recoveryFailed`` when a crashed switch left a
    ///   journal (`journal.json`, or `journal.undo.json` of a change being undone): the home's entries are half moved, and only a process that can write the home can
    ///   finish the switch.
    func readingUnwritableHome<Result>(
        lock: String, refusal: SystemCallError, _ body: () throws -> Result
    ) throws -> Result {
        try HomeLock.holdingShared(lock) {
            // Either journal: one being undone (journal.undo.json) leaves entries half moved back too.
            for journal in layout.journals where try FileSystem.exists(journal) {
                throw ContainerError.recoveryFailed(journal: journal, underlying: refusal)
            }
            return try body()
        }
    }
}
