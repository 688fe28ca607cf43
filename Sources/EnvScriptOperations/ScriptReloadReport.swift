/// What a reload of a host's start-up scripts (`EnvScriptHost.reloadStartupScripts()`) put in force: the
/// answer of `POST /v1/reload` and what `envscript reload` prints for each running host.
public struct ScriptReloadReport: Sendable, Equatable, Codable {
    /// The start-up scripts run again, absolute, in order.
    public let scripts: [String]
    /// The names of the flag providers in force after the reload, highest priority first.
    public let providers: [String]
    /// How many hooks, `tweak.on_change` handlers and dependencies the scripts registered.
    public let registrations: Int
    /// How many remote providers (`tweak.remote`, `tweak.ofrep`) the scripts declared.
    public let remoteProviders: Int
    /// How many of those were declared as before and kept as they were, without fetching again.
    public let keptRemoteProviders: Int
    /// How long the reload took, from the call to the swap, in milliseconds (to the microsecond).
    public let milliseconds: Double

    /// A report of what a reload put in force.
    package init(
        scripts: [String], providers: [String], registrations: Int, remoteProviders: Int, keptRemoteProviders: Int,
        duration: Duration
    ) {
        self.scripts = scripts
        self.providers = providers
        self.registrations = registrations
        self.remoteProviders = remoteProviders
        self.keptRemoteProviders = keptRemoteProviders
        let (seconds, attoseconds) = duration.components
        milliseconds = Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000) / 1000
    }
}
