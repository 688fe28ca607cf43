import Foundation

/// A problem of the host's set-up, found before any Lua runs.
public enum HostError: Error, Equatable, CustomStringConvertible {
    /// A script file named by the user does not exist or cannot be read.
    case scriptNotReadable(path: String, reason: String)
    /// The home folder cannot be created or is not a folder.
    case homeUnusable(path: String, reason: String)
    /// The home belongs to another application: the identifier `recorded` in the file `record` is not
    /// the `requested` one.
    case appIDMismatch(home: String, recorded: String, requested: String, record: String)
    /// The application identifier cannot name the application's files; `reason` says why.
    case invalidAppID(String, reason: String)
    /// The control socket could not be served, so the host cannot attach to its home.
    case attachmentFailed(socket: String, reason: String)
    /// The host was closed, or released, while a request was still being answered.
    case closed
    /// Other running hosts are attached to the home, and this one, built without EnvScript's `Control`
    /// trait, cannot reach them to give them their part in its change.
    case cannotReachRunningHosts(pids: [Int32])
    /// A text given as a web origin (`AllowedOrigins`) is not one.
    case invalidOrigin(String)
    /// The OFREP listener (`HostConfiguration/ofrepListener`) cannot be set up or cannot listen;
    /// `reason` says why.
    case ofrepListenerFailed(address: String, reason: String)

    public var description: String {
        switch self {
        case .scriptNotReadable(let path, let reason):
            return "cannot read script '\(path)': \(reason); check the path and its permissions"
        case .homeUnusable(let path, let reason):
            return "cannot use '\(path)' as the home folder: \(reason); use another folder as the home"
        case .appIDMismatch(let home, let recorded, let requested, let record):
            return "the home '\(home)' belongs to the application '\(recorded)' (recorded in '\(record)'), not to '\(requested)'; open it as '\(recorded)' (on the command line: --app-id \(recorded), or no --app-id) to use its files, or use another home; if the home really belongs to '\(requested)', delete '\(record)' and open it again"
        case .attachmentFailed(let socket, let reason):
            return "cannot serve the control socket '\(socket)': \(reason); check that the home's bookkeeping folder is writable, or open the host with attachesToHome: false"
        case .closed:
            return "the host has closed; it no longer answers"
        case .cannotReachRunningHosts(let pids):
            return "other running hosts are attached to this home (\(pids.map { "pid \($0)" }.joined(separator: ", "))), and this application, built without EnvScript's Control trait, cannot reach them to take their part in the change; quit them first, or build this application with the Control trait"
        case .invalidOrigin(let text):
            return "'\(text)' is not a web origin: give http or https, a host and an optional port, nothing after (http://localhost:5173)"
        case .ofrepListenerFailed(let address, let reason):
            return "cannot serve OFREP on \(address): \(reason)"
        case .invalidAppID(let identifier, let reason):
            return "invalid application identifier '\(identifier.debugDescription.dropFirst().dropLast())': it \(reason); use a name like com.example.app"
        }
    }
}
