public import Containers
public import Foundation
public import LuaBridge
public import Tweaks

/// How an ``EnvScriptHost`` is set up: where the application's home is, its identifier, and how the
/// Lua state is limited.
public struct HostConfiguration: Sendable {
    /// The identifier a host uses in a home that has none recorded when ``appID`` is nil.
    public static let defaultAppID = "envscript"

    /// The application's writable root: the folder whose contents containers switch.
    public var home: URL
    /// The application's identifier; names its preferences file, `Library/Preferences/<appID>.plist`.
    ///
    /// A home remembers the identifier of the first host that recorded one (see `recordsAppID`). A
    /// different identifier here then fails with `HostError/Code/appIDMismatch`.
    /// nil uses the home's recorded identifier, or ``defaultAppID`` when it has none; the identifier in
    /// use is ``EnvScriptHost/appID``.
    public var appID: String?
    /// Whether opening a home that has no identifier recorded records the one this host uses (default
    /// true), so that every later host and `envscript` command uses the same application's files.
    /// The command line turns it off for commands that write none of the application's data.
    package var recordsAppID: Bool
    /// Limits, extra libraries and script roots of the Lua state.
    public var lua: LuaOptions
    /// The key file of secure state (mode 0600, created when missing). It must lie outside the home,
    /// so that no container carries it; nil for `keys/<appID>.key` beside the home, named after the
    /// identifier in use (``EnvScriptHost/secureKeyFile``).
    package var secureKeyFile: URL?
    /// Keys the host passes to the tweak cipher (`TweakKeySource.keys(_:)` from a keychain or a secret
    /// store, `TweakKeySource.environment(_:)` from a variable), read when a script first asks for the
    /// cipher: `tweak.cipher{}` opens and seals with them, and with the keys of its own `key_file` when it
    /// names one (whose last key then seals). Nil for none.
    public var tweakKeys: TweakKeySource?
    /// Whether the host attaches to its home while it is open (default true): it serves the control
    /// API on a Unix domain socket in the home's bookkeeping folder, and takes part in every switch of
    /// the home that another process makes — its participants flush and reload, its hooks run and may
    /// refuse. Built without the `Control` trait, it serves no socket: it publishes a record by which
    /// another process's switch finds it, and refuses, since the host cannot take part. A one-shot tool that only asks for changes (the `envscript` command) need not attach:
    /// whether attached or not, a host's own changes always give the attached hosts their part.
    public var attachesToHome: Bool
    /// How long a change waits for each attached host to answer before it is cancelled (default 10 s).
    public var participationTimeout: Duration
    /// What the host, once attached, is to the other processes of the home (default
    /// `AttachedHostRole.application`): the panel of `envscript ui` shows the flags and state of the
    /// application attached to its home. Tools that attach for a while, like the `envscript` command,
    /// say `AttachedHostRole.tool`.
    public var role: AttachedHostRole = .application
    #if Control
    /// What one client may hold of the control socket of the attached host: connections at once, idle
    /// and request timeouts (see ``ServerLimits``; the defaults suit the command line and a panel).
    package var controlServerLimits = ServerLimits()
    /// A TCP listener on which the host serves its flags over OFREP to OpenFeature SDKs — browsers of
    /// allowed origins, services of a fleet — with a bearer token; nil (the default) for none. See
    /// `OFREPListener`.
    public var ofrepListener: OFREPListener?
    #endif
    /// How long one call of a container hook from Lua (`container.on_will_change`,
    /// `container.on_did_change`) may run; `nil` (the default) for no limit beyond the instruction
    /// budget. A will-change hook stopped by it cancels its switch, so a stuck hook never holds the
    /// home for longer; a did-change hook stopped by it is logged.
    public var hookTimeout: Duration?
    /// What scripts may reach beyond the sandbox: by default files under the project folders (the
    /// script roots of ``lua``) and no network. See ``ScriptPermissions``.
    public var permissions = ScriptPermissions()
    /// The folder that relative paths given to host functions (`tweak.json("tweaks.json")`,
    /// `container.export`, ...) start from; `nil` (the default) for the process's current folder. The
    /// `envscript` command sets it to the folder of the `envscript.lua` it found, so a project's scripts
    /// mean the same files wherever the command runs.
    public var scriptPathBase: URL?

    /// Runs on each new Lua state of the host once its modules are in, before any script: when the host
    /// opens, and at each ``EnvScriptHost/reloadStartupScripts()``, which runs the start-up scripts in a
    /// new state. Set the globals and register the modules of your own that scripts use here (rather
    /// than on ``EnvScriptHost/lua`` after opening), so that a reload keeps them; an error it throws
    /// fails the opening or the reload. Nil (the default) for nothing.
    public var prepareLua: (@Sendable (LuaState) throws -> Void)?

    /// Whether the host reloads its start-up scripts by itself (``EnvScriptHost/reloadStartupScripts()``)
    /// when one of them, or a file they `require`, changes on disk — checked twice a second (default
    /// false). A reload that fails is logged, and the scripts in force go on until the next change.
    /// `envscript ui --watch` turns it on.
    public var watchesStartupScripts = false

    /// Whether the host makes its ``EnvScriptHost/application`` the process's current application
    /// (default true) as it opens, until it closes: the one AppState-style static accessors
    /// (`Application.state(\.username)`) and property wrappers (`@AppState(\.username)`) use. With
    /// several hosts open, the last one opened is current; when it closes, the one before it is again.
    public var makesApplicationCurrent = true

    /// A configuration over `home` with the default sandbox and limits.
    public init(
        home: URL, appID: String? = nil, recordsAppID: Bool = true, lua: LuaOptions = LuaOptions(),
        secureKeyFile: URL? = nil, attachesToHome: Bool = true, participationTimeout: Duration = .seconds(10)
    ) {
        self.home = home
        self.appID = appID
        self.recordsAppID = recordsAppID
        self.lua = lua
        self.secureKeyFile = secureKeyFile
        self.attachesToHome = attachesToHome
        self.participationTimeout = participationTimeout
    }

    /// The key file of secure state for a host whose identifier is `appID`.
    func secureKeyFile(appID: String) -> URL {
        secureKeyFile ?? home.deletingLastPathComponent().appendingPathComponent("keys/\(appID).key")
    }
}
