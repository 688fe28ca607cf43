package import Containers

/// What a container operation that moves data (activate, clean, delete, reset) did: the container it
/// concerns — the active one after a switch or a reset, the emptied one after a clean, the deleted one as
/// it was — and the engine's report of who took part, who was late and what was left to finish.
package struct ContainerChange: Sendable {
    package let container: ContainerView
    package let report: ContainerChangeReport
}
