package import Foundation

/// A change of the list of a home's containers — one created (or cloned), renamed or described,
/// deleted, or every one but DEFAULT removed by a reset — made by this process or by another one
/// attached to the home. Switches are not list changes: did-change hooks report them.
public struct ContainerListChange: Sendable, Codable, Equatable {
    /// What happened to the list.
    package enum Kind: String, Sendable, Codable {
        /// A container was created, or made as a clone of another.
        case created
        /// A container's name or description changed.
        case updated
        /// A container was deleted.
        case deleted
        /// The home was reset: only DEFAULT is left.
        case reset
    }

    /// What happened to the list.
    package var kind: Kind
    /// The container concerned; nil for ``Kind/reset``.
    package var uuid: UUID?

    /// A change.
    package init(kind: Kind, uuid: UUID?) {
        self.kind = kind
        self.uuid = uuid
    }
}

/// A closure run after the list of containers changed, on the thread that made the change (or that
/// heard of it from another process); it must not block.
public typealias ContainerListHook = @Sendable (ContainerListChange) -> Void
