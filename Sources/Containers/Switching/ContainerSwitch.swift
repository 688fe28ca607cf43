/// One switch of the active container, as ``AppContainer/switches`` reports it.
public struct ContainerSwitch: Sendable {
    /// The container active after the switch.
    public let to: Container
    /// The container active before it, if known.
    public let from: Container?
}
