extension AppContainer {
    /// Where a Ctrl-C handler asks this instance's switches (and cleans) to stop, or nil; see
    /// ``ChangeInterruption``.
    package var interruption: ChangeInterruption? {
        get { settings.withLock { $0.interruption } }
        set { settings.withLock { $0.interruption = newValue } }
    }

    /// Throws ``ContainerError/Code/interrupted`` when ``interruption`` asks the change described
    /// as `operation` to stop.
    func stopIfInterrupted(_ operation: @autoclosure () -> String) throws {
        if interruption?.isRequested == true { throw ContainerError.interrupted(operation: operation()) }
    }

    /// How a journal and an interruption name a switch: `switch from 'A' (<UUID>) to 'B' (<UUID>)`.
    static func switchDescription(from: Container, to target: Container) -> String {
        "switch from '\(from.name)' (\(from.uuid.uuidString)) to '\(target.name)' (\(target.uuid.uuidString))"
    }
}
