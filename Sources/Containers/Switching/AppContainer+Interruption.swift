extension AppContainer {
    /// How a journal and an interruption name a switch: `switch from 'A' (<UUID>) to 'B' (<UUID>)`.
    static func switchDescription(from: Container, to target: Container) -> String {
        "switch from '\(from.name)' (\(from.uuid.uuidString)) to '\(target.name)' (\(target.uuid.uuidString))"
    }
}
