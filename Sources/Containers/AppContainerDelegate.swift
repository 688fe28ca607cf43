/// An object told before and after the active container of an ``AppContainer`` changes.
///
/// Delegates are held weakly (a released delegate simply stops being called) and called in the order
/// they were added, interleaved with closure hooks by registration order, on the thread doing the
/// switch. See ``AppContainer/add(delegate:)``.
public protocol AppContainerDelegate: AnyObject {
    /// Called before the switch from `from` to `to`, with the home locked. Throwing cancels the switch:
    /// nothing on disk changes and `activate` throws ``ContainerError/Code/switchCancelled``.
    ///
    /// Do not change containers of the same home from here; that throws
    /// ``ContainerError/Code/reentrantOperation``.
    func containerWillChange(to: Container, from: Container?) throws

    /// Called after the switch. For a switch this instance made, once the lock is released: it may
    /// change containers again. For another process's switch (see `AppContainer/finishTakingPart(waitingAtMost:)`),
    /// while that process still holds the home's lock, so the data of `to` is live: changing containers
    /// from here throws ``ContainerError/Code/reentrantOperation``.
    func containerDidChange(to: Container, from: Container?)
}
