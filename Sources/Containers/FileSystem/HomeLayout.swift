import Foundation

/// Where the engine keeps its bookkeeping inside a home.
///
/// ```
/// <home>/.envscript-containers/
///     lock                        flock(2) target held by every changing operation
///     stores.lock                 flock(2) target held by every writer of a container's stores
///     state.json                  the active container's UUID and the switch generation
///     application.json            whose home it is: ApplicationRecord.swift (kept by reset)
///     journal.json                present only while a switch (or clean, delete) is under way
///     journal.undo.json           the same journal while a change that failed or was interrupted is undone
///     containers/<UUID>/container.json
///     containers/<UUID>/data/     the container's entries while it is not the active one
///     containers/<UUID>/hidden/   its entries that collided with excluded files of the live home
///     containers/<UUID>/conflicts/<time>/  entries found in the way of a switch, kept (KeptNewcomer)
///     trash/                      removed entries on their way out
///     hosts/<id>.lock|json|sock   the running hosts attached to the home (see AttachedHosts)
///     tools/                      the tools' own files, such as the REPL's history
/// ```
///
/// The bookkeeping folder is on the same file system as the home, so every move is a `rename(2)`.
/// Journal paths are relative to the home, so a home can be moved as a whole.
struct HomeLayout: Sendable {
    /// The name of the bookkeeping folder at the top of the home.
    static let bookkeepingName = ".envscript-containers"
    /// The name the bookkeeping folder takes while ``AppContainer/reset()`` removes it.
    static let removedBookkeepingName = ".envscript-containers.removed"

    /// The home, as a path without a trailing slash.
    let home: String

    init(home: URL) {
        var path = home.path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.home = path
    }

    /// Whether a top-level entry of the home belongs to the engine and is never switched.
    static func isReserved(topLevelName name: String) -> Bool {
        name == bookkeepingName || name == removedBookkeepingName
    }

    var bookkeeping: String { home + "/" + Self.bookkeepingName }
    var removedBookkeeping: String { home + "/" + Self.removedBookkeepingName }
    var lock: String { bookkeeping + "/lock" }
    var storesLock: String { bookkeeping + "/stores.lock" }
    var state: String { bookkeeping + "/state.json" }
    var journal: String { bookkeeping + "/journal.json" }
    /// The journal of a change being undone (see ``Journal``); at most one of the two exists.
    var undoJournal: String { bookkeeping + "/journal.undo.json" }
    /// Both places a journal may be.
    var journals: [String] { [journal, undoJournal] }
    var containers: String { bookkeeping + "/containers" }
    var trash: String { bookkeeping + "/trash" }
    var hosts: String { bookkeeping + "/hosts" }
    var tools: String { bookkeeping + "/tools" }

    // Relative forms, as written in the journal.
    static func containerFolder(_ uuid: UUID) -> String { bookkeepingName + "/containers/" + uuid.uuidString }
    static func dataFolder(_ uuid: UUID) -> String { containerFolder(uuid) + "/data" }
    static func hiddenFolder(_ uuid: UUID) -> String { containerFolder(uuid) + "/hidden" }
    static func trashFolder(_ name: String) -> String { bookkeepingName + "/trash/" + name }

    func containerFolder(_ uuid: UUID) -> String { absolute(Self.containerFolder(uuid)) }
    func dataFolder(_ uuid: UUID) -> String { absolute(Self.dataFolder(uuid)) }
    func hiddenFolder(_ uuid: UUID) -> String { absolute(Self.hiddenFolder(uuid)) }
    func metadata(_ uuid: UUID) -> String { containerFolder(uuid) + "/container.json" }

    /// The absolute path of a path relative to the home; the empty path is the home itself.
    func absolute(_ relative: String) -> String {
        relative.isEmpty ? home : home + "/" + relative
    }
}

/// Joins relative path components; the empty list is the empty path.
func joinPath(_ base: String, _ name: String) -> String {
    base.isEmpty ? name : base + "/" + name
}
