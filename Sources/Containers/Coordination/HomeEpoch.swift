package import Foundation

/// Which container is live in a home, and after how many switches: the fencing token of everything a
/// process caches from the live home.
///
/// A process that read a container's files under one epoch and writes them back under another has
/// missed a switch: its write belongs to the container it read, which now waits in its stash (see
/// ``AppContainer/currentPath(ofLivePath:readIn:under:)``), never to the container live now.
package struct HomeEpoch: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Bumped by every switch; recorded in the home's `state.json`.
    package var generation: UInt64
    /// The container whose entries are in the live home.
    package var activeContainer: UUID

    /// An epoch with these values.
    package init(generation: UInt64, activeContainer: UUID) {
        self.generation = generation
        self.activeContainer = activeContainer
    }

    /// `generation N, container <UUID>`.
    package var description: String { "generation \(generation), container \(activeContainer.uuidString)" }
}
