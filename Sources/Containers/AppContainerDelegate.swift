/// An object told before and after the active container of an ``AppContainer`` changes.
///
/// Delegates are held weakly (a released delegate simply stops being called) and called in the order
/// they were added, interleaved with closure hooks by registration order, on the thread doing the
/// switch. See ``AppContainer/add(delegate:)``.
public protocol AppContainerDelegate: AnyObject {
    /// Called before the switch from `from` to `to`, with the home locked. Throwing cancels the switch:
    /// nothing on disk changes and `activate` throws ``ContainerError/switchCancelled(underlying:)``.
    ///
    /// Do not change containers of the same home from here; that throws
    /// ``ContainerError/reentrantOperation(_:)``.
    func containerWillChange(to: Container, from: Container?) throws

    /// Called after the switch, once the lock is released; may change containers again.
    func containerDidChange(to: Container, from: Container?)
}
