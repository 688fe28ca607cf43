import Foundation

/// A change of the home that other processes attached to it take part in.
package struct HomeChange: Sendable, Equatable {
    /// What kind of change.
    package enum Kind: String, Sendable, Codable {
        /// The active container changes from `from` to `to`.
        case `switch`
        /// The active container (`to`, equal to `from`) is emptied.
        case clean
    }

    /// Unique per change, so that answers and late messages are never confused.
    package var id: String
    /// What the change is.
    package var kind: Kind
    /// The container active after the change.
    package var to: Container
    /// The container active before it.
    package var from: Container

    /// A change.
    package init(id: String = UUID().uuidString, kind: Kind, to: Container, from: Container) {
        self.id = id
        self.kind = kind
        self.to = to
        self.from = from
    }
}

/// The other processes that take part in every change of a home — whoever asks for it. Set on an
/// ``AppContainer`` with ``AppContainer/remoteParticipants``; the EnvScript runtime reaches running
/// hosts through their control sockets.
///
/// With the home locked, ``prepare(_:)`` asks each of them to flush and run its will-change hooks;
/// after the change is committed (or abandoned), still with the home locked, ``finish(_:committed:)``
/// lets them reload and run their did-change hooks, so each hook sees its own change's data live.
package protocol RemoteParticipants: Sendable {
    /// Asks every other attached process to prepare for `change`.
    ///
    /// - Returns: what ``finish(_:committed:)`` needs (for example the processes that prepared).
    /// - Throws: when one of them refused or did not answer in time; the change is then cancelled and
    ///   ``finish(_:committed:)`` is called with `committed: false` for those that prepared, which must
    ///   be part of the thrown error's cleanup or of the returned value.
    func prepare(_ change: HomeChange) throws -> PreparedHomeChange

    /// Tells the processes that prepared whether the change happened, and waits for each to reload and
    /// run its did-change hooks (up to its timeout). Called while the home's lock is still held, so
    /// their hooks see the home as this change left it.
    ///
    /// - Returns: the process ids of those that did not say, in time, that they had done their part
    ///   (busy in a long script, or stuck in a hook); they catch up once free.
    @discardableResult
    func finish(_ prepared: PreparedHomeChange, committed: Bool) -> [Int32]

    /// Tells every other attached process that the list of containers changed (best effort, once the
    /// home's lock is released): they pass it to `AppContainer/hearListChange(_:)`.
    func announce(_ change: ContainerListChange)
}

extension RemoteParticipants {
    /// Tells no one: for participants that only take part in switches.
    package func announce(_ change: ContainerListChange) {}
}

/// The outcome of ``RemoteParticipants/prepare(_:)``: the change and who prepared for it.
package struct PreparedHomeChange: Sendable {
    /// The change prepared for.
    package var change: HomeChange
    /// The process ids that took part.
    package var participants: [Int32]
    /// Whatever the participants' implementation needs to finish.
    package var context: [String]

    /// A prepared change.
    package init(change: HomeChange, participants: [Int32], context: [String] = []) {
        self.change = change
        self.participants = participants
        self.context = context
    }
}
