/// One changing operation of an ``AppContainer`` while it holds the home: what can stop it, the switch
/// it made (announced once the lock is released) and the report it returns.
struct ChangeInProgress {
    /// Where a Ctrl-C handler asks this change to stop, or nil.
    let interruption: ChangeInterruption?
    /// The switch the operation made, if any.
    var completed: AppContainer.CompletedSwitch?
    /// What the caller learns besides the operation's result.
    var report = ContainerChangeReport()

    init(interruption: ChangeInterruption? = nil) {
        self.interruption = interruption
    }

    /// Whether the ``interruption`` asks this change to stop.
    var isInterrupted: Bool { interruption?.isRequested == true }

    /// Throws ``ContainerError/Code/interrupted`` when the ``interruption`` asks the change described as
    /// `operation` to stop.
    func stopIfInterrupted(_ operation: @autoclosure () -> String) throws {
        if isInterrupted { throw ContainerError.interrupted(operation: operation()) }
    }
}
