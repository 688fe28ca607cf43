public import Foundation

/// An entry that was in the way of a switch and was set aside, not lost.
///
/// A switch moves whole entries with `rename(2)`. If an application creates an entry at a path that the
/// switch is about to fill — say `Documents` while the incoming container's `Documents` waits in its
/// folder, during the switch or between a crash and the recovery — that newcomer is neither overwritten
/// nor taken for the entry the switch moves. It is moved to
///
/// ```
/// <home>/.envscript-containers/containers/<UUID>/conflicts/<timestamp>/<path>
/// ```
///
/// and the switch completes with the incoming container's own entry in place. `<UUID>` is the container
/// that was active when the switch began (the one it leaves; for a switch that fails and is undone, the
/// one that stays active), `<timestamp>` the UTC time the first newcomer of that switch (or of its
/// recovery) was found (`2025-01-31T09-30-00.123Z`), and `<path>` where the newcomer was, relative to
/// the home — a newcomer found in a container's stash keeps its whole path, `.envscript-containers/…`.
///
/// Why there: the folder is inside the bookkeeping, so no switch ever moves it and nothing takes it for
/// live data. It is beside the container's `data` folder, not in it, because `data` holds that
/// container's own entries and comes back into the live home on its next activation — a newcomer in
/// it would silently become part of that container, or be refused there if the switch is undone and
/// the container stays active (its `data` must then be empty). It is the left container's, because the
/// newcomer was made while that container's entries were, or had just been, live. Nothing takes a kept
/// newcomer back: look at it and move it where it belongs. Deleting that container, or resetting the
/// home, removes its conflicts folder with it.
///
/// A switch tells each kept newcomer to the step observer (``SwitchStep/keptNewcomer(_:)``) and lists
/// them in its did-change notification under ``AppContainer/keptNewcomersUserInfoKey``. Newcomers kept
/// while a home is opened, when the switch a crashed process left is finished, are only on disk: no
/// observer can be set before the home is open.
public struct KeptNewcomer: Sendable, Hashable, CustomStringConvertible {
    /// Where the newcomer was, relative to the home: `Documents`, `Library/Preferences`.
    public let path: String
    /// Where it is kept now.
    package let keptAt: URL
    /// The container in whose `conflicts` folder it is kept.
    public let container: UUID

    /// Creates a record of a kept newcomer.
    package init(path: String, keptAt: URL, container: UUID) {
        self.path = path
        self.keptAt = keptAt
        self.container = container
    }

    /// `'Documents' was in the way of a container switch and is kept at '<path>'`.
    public var description: String {
        "'\(path)' was in the way of a container switch and is kept at '\(keptAt.path)'"
    }
}
