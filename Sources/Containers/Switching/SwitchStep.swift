/// The points a container switch passes, in order, as reported to an observer set with
/// ``AppContainer/observeSwitchSteps(_:)``.
///
/// They serve tracing and benchmarks, and crash tests, which kill a process at each of them to prove
/// that every point is recoverable.
public enum SwitchStep: Sendable, Equatable, CustomStringConvertible {
    /// The home's file lock is held.
    case locked
    /// The will-change delegates and hooks returned without error.
    case willChangeDone
    /// The participants flushed.
    case participantsFlushed
    /// The new `state.json` is durable under a temporary name, not yet in place; written before the
    /// journal, with every other record the switch needs, so that no write can fail once entries move.
    case stateStaged
    /// The journal is durable under a temporary name, not yet in place (a crash leaves the old container).
    case journalStaged
    /// The journal is in place: from here a crash is finished on the next opening.
    case journalWritten
    /// Move number `index` (from 1) of `total` was done.
    case moved(_ index: Int, of: Int)
    /// An entry an application had put in the way of a move was set aside in the conflicts folder
    /// instead of being overwritten or taken for the moved entry. Comes just before the move it made way
    /// for; also told when an operation finishes (or undoes) a switch that a crashed process left.
    case keptNewcomer(KeptNewcomer)
    /// The moves and the folders they touched are durable.
    case movesSynced
    /// The new active container is recorded: the switch is committed.
    case stateRecorded
    /// The journal is removed.
    case journalRemoved
    /// The participants reloaded.
    case participantsReloaded
    /// The did-change delegates and hooks ran and the notification was posted.
    case didChangeDone

    /// A stable name: `locked`, `will-change-done`, `participants-flushed`, `state-staged`,
    /// `journal-staged`, `journal-written`, `moved-<index>`, `kept-newcomer`, `moves-synced`,
    /// `state-recorded`, `journal-removed`, `participants-reloaded`, `did-change-done`.
    public var description: String {
        switch self {
        case .locked: return "locked"
        case .willChangeDone: return "will-change-done"
        case .participantsFlushed: return "participants-flushed"
        case .journalStaged: return "journal-staged"
        case .journalWritten: return "journal-written"
        case .moved(let index, _): return "moved-\(index)"
        case .keptNewcomer: return "kept-newcomer"
        case .movesSynced: return "moves-synced"
        case .stateStaged: return "state-staged"
        case .stateRecorded: return "state-recorded"
        case .journalRemoved: return "journal-removed"
        case .participantsReloaded: return "participants-reloaded"
        case .didChangeDone: return "did-change-done"
        }
    }
}
