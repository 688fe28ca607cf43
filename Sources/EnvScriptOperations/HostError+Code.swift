extension HostError {
    /// What kind of failure a ``HostError`` is. Compare with the static members
    /// (`error.code == .scriptNotReadable`); a release may add codes, so a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`scriptNotReadable`).
        public let name: String

        private init(name: String) {
            self.name = name
        }

        /// A script file named by the user does not exist or cannot be read.
        public static let scriptNotReadable = Code(name: "scriptNotReadable")
        /// The home folder cannot be created or is not a folder.
        public static let homeUnusable = Code(name: "homeUnusable")
        /// The home belongs to another application: the identifier `recorded` in the file `record` is not
        /// the `requested` one.
        public static let appIDMismatch = Code(name: "appIDMismatch")
        /// The application identifier cannot name the application's files; `reason` says why.
        public static let invalidAppID = Code(name: "invalidAppID")
        /// The control socket could not be served, so the host cannot attach to its home.
        public static let attachmentFailed = Code(name: "attachmentFailed")
        /// The host was closed, or released, while a request was still being answered.
        public static let closed = Code(name: "closed")
        /// Other running hosts are attached to the home, and this one, built without EnvScript's `Control`
        /// trait, cannot reach them to give them their part in its change.
        public static let cannotReachRunningHosts = Code(name: "cannotReachRunningHosts")
        /// A text given as a web origin (`AllowedOrigins`) is not one.
        public static let invalidOrigin = Code(name: "invalidOrigin")
        /// The OFREP listener (`HostConfiguration/ofrepListener`) cannot be set up or cannot listen;
        /// `reason` says why.
        public static let ofrepListenerFailed = Code(name: "ofrepListenerFailed")

        /// The panel's server (`servePanel()`) cannot listen on the address it was given (the port is
        /// taken, or the address is not one of this machine's); the message says why.
        public static let panelListenerFailed = Code(name: "panelListenerFailed")
        /// The start-up scripts cannot be reloaded now (the host ran none, or the reload was asked for by a
        /// thread holding the host's lock: a script, a hook); the message says why. A script that fails to
        /// reload throws its own error.
        public static let reloadRefused = Code(name: "reloadRefused")

        /// The ``name``.
        public var description: String { name }
    }
}
