import Foundation

/// A problem of the host's set-up, found before any Lua runs, or of a server it starts (its OFREP
/// listener, its panel).
///
/// Tell failures apart by their ``code``, compared with the static members of ``Code``
/// (`error.code == .scriptNotReadable`); a release may add codes, so a `switch` over them needs a `default`.
public struct HostError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The failure with its details. `package`: the modules of this package match on it; an app uses
    /// ``code`` and ``message``.
    package let reason: Reason

    /// The error for `reason`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// What kind of failure it is.
    public var code: Code {
        switch reason {
        case .scriptNotReadable: .scriptNotReadable
        case .homeUnusable: .homeUnusable
        case .appIDMismatch: .appIDMismatch
        case .invalidAppID: .invalidAppID
        case .attachmentFailed: .attachmentFailed
        case .closed: .closed
        case .cannotReachRunningHosts: .cannotReachRunningHosts
        case .invalidOrigin: .invalidOrigin
        case .ofrepListenerFailed: .ofrepListenerFailed
        case .panelListenerFailed: .panelListenerFailed
        case .reloadRefused: .reloadRefused
        }
    }

    /// A message that says what failed and what to do about it.
    public var message: String {
        switch reason {
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
        case .panelListenerFailed(let address, let reason):
            return "the panel cannot listen on \(address): \(reason)"
        case .reloadRefused(let reason):
            return "the start-up scripts cannot be reloaded: \(reason)"
        case .invalidAppID(let identifier, let reason):
            return "invalid application identifier '\(identifier.debugDescription.dropFirst().dropLast())': it \(reason); use a name like com.example.app"
        }
    }

    /// Same as ``message``.
    public var description: String { message }
}
