/// Why a home cannot be opened as a given application. Each message names the home, the identifiers
/// and the record, and says what to do.
public enum ApplicationIDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The home belongs to another application: `recorded` (in the file `record`) is not `requested`.
    case mismatch(home: String, recorded: String, requested: String, record: String)
    /// The identifier cannot name the application's files; `reason` says why.
    case invalid(String, reason: String)

    /// A message that says what failed and what to do about it.
    public var description: String {
        switch self {
        case .mismatch(let home, let recorded, let requested, let record):
            return "the home '\(home)' belongs to the application '\(recorded)' (recorded in '\(record)'), not to '\(requested)'; open it as '\(recorded)' to use its files, or use another home; if the home really belongs to '\(requested)', delete '\(record)' and open it again"
        case .invalid(let identifier, let reason):
            return "invalid application identifier '\(identifier.debugDescription.dropFirst().dropLast())': it \(reason); use a name like com.example.app"
        }
    }
}
