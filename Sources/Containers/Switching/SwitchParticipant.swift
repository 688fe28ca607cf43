public import Foundation

/// A part of the application that caches the home's files in memory — a preferences store, a file
/// state, tweak overrides — and so must write its changes out before a switch and read the new
/// container's files after it.
///
/// Participants are held weakly and called in the order they were added, after the will-change hooks
/// and before the did-change hooks, with the home locked. See ``AppContainer/add(participant:)``.
public protocol SwitchParticipant: AnyObject {
    /// Writes pending changes to the live home; called before anything moves (and before a clone of the
    /// active container). Throwing cancels the switch with nothing changed on disk.
    func prepareForSwitch() throws

    /// Drops what was read from the previous container and reads the new one's files.
    func containerDidSwitch()

    /// Forgets whatever it keeps for a container that was deleted (by ``AppContainer/delete(container:)``
    /// or ``AppContainer/reset()``), once it is gone. Called with the home locked; by default nothing.
    func containerWasRemoved(_ uuid: UUID)
}

extension SwitchParticipant {
    public func containerWasRemoved(_ uuid: UUID) {}
}
