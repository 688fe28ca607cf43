/// One switch of the active container, as ``AppContainer/switches`` reports it.
public struct ContainerSwitch: Sendable {
    /// The container active after the switch.
    package let to: Container
    /// The container active before it, if known.
    package let from: Container?
}
