extension HostError {
    /// The failure with its details, one case per `Code`. `package`: the modules of this package match on
    /// it; an app uses `code` and `message`.
    package enum Reason: Sendable, Equatable {
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
        /// A text given as a web origin (``AllowedOrigins``) is not one.
        case invalidOrigin(String)
        /// The OFREP listener (``HostConfiguration/ofrepListener``) cannot be set up or cannot listen;
        /// `reason` says why.
        case ofrepListenerFailed(address: String, reason: String)
        /// The panel's server cannot listen on `address`; `reason` says why.
        case panelListenerFailed(address: String, reason: String)
        /// The start-up scripts cannot be reloaded now; `reason` says why.
        case reloadRefused(reason: String)
    }

    // The errors by the names of their reasons, so that `throw HostError.scriptNotReadable(...)` reads as the
    // reason it throws.

    package static func scriptNotReadable(path: String, reason: String) -> Self { Self(.scriptNotReadable(path: path, reason: reason)) }
    package static func homeUnusable(path: String, reason: String) -> Self { Self(.homeUnusable(path: path, reason: reason)) }
    package static func appIDMismatch(home: String, recorded: String, requested: String, record: String) -> Self { Self(.appIDMismatch(home: home, recorded: recorded, requested: requested, record: record)) }
    package static func invalidAppID(_ value0: String, reason: String) -> Self { Self(.invalidAppID(value0, reason: reason)) }
    package static func attachmentFailed(socket: String, reason: String) -> Self { Self(.attachmentFailed(socket: socket, reason: reason)) }
    package static var closed: Self { Self(.closed) }
    package static func cannotReachRunningHosts(pids: [Int32]) -> Self { Self(.cannotReachRunningHosts(pids: pids)) }
    package static func invalidOrigin(_ value0: String) -> Self { Self(.invalidOrigin(value0)) }
    package static func ofrepListenerFailed(address: String, reason: String) -> Self { Self(.ofrepListenerFailed(address: address, reason: reason)) }
    package static func panelListenerFailed(address: String, reason: String) -> Self { Self(.panelListenerFailed(address: address, reason: reason)) }
    package static func reloadRefused(reason: String) -> Self { Self(.reloadRefused(reason: reason)) }
}
