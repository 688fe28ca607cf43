import Foundation

/// Reads one environment variable with `getenv`: `ProcessInfo.environment` copies every variable of
/// the process into a dictionary on each call, a cost every command paid at start-up for one value.
enum EnvironmentVariable {
    /// The value of `name`, nil when it is not set or not UTF-8.
    static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(validatingCString: value)
    }
}
