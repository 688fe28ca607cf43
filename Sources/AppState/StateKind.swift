/// Where a piece of application state lives.
public enum StateKind: String, Sendable, Hashable, CustomStringConvertible {
    /// In memory only: gone when the process ends, set back to its initial value on a container switch
    /// (or to the value it had in the container switched to, when containers are named).
    case memory
    /// In the container's preferences (`Library/Preferences/<appID>.plist`).
    case stored
    /// In a JSON file of its own in the container.
    case file
    /// In a file of its own in the container, encrypted with AES-GCM under a key kept outside the containers.
    case secure

    /// The raw name ("memory", "stored", "file", "secure").
    public var description: String { rawValue }
}
