/// What a change of the home did besides its result: which other processes took part in it, which of
/// them were late, and what was left to finish.
///
/// Returned by every operation that moves a container's data (``AppContainer/activate(container:)``,
/// ``AppContainer/clean(container:)``, ``AppContainer/delete(container:)``, ``AppContainer/reset()``),
/// so that two threads changing one home each learn about their own change.
public struct ContainerChangeReport: Sendable, Equatable {
    /// The process ids of the other processes (running hosts reached through their control sockets) that
    /// took part in the change.
    public internal(set) var participants: [Int32] = []

    /// Those of ``participants`` that did not say in time that they had reloaded and run their
    /// did-change hooks (busy in a long script, or stuck in a hook): they catch up once free, from the
    /// container they last saw to the one then live.
    public internal(set) var lateParticipants: [Int32] = []

    /// Why tidying up after the change failed (putting its records in place, removing its journal or
    /// trash), in words; nil when nothing failed. The change is made — the failure came past its commit
    /// point — and the journal it left is finished by the next opening of the home.
    public internal(set) var leftToFinish: String?

    /// A report of a change nobody else took part in and that left nothing to finish.
    package init() {}
}
