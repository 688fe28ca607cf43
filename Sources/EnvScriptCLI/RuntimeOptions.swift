import ArgumentParser
import Containers
import EnvScript
import Foundation
import LuaBridge
import Scenarios
import Tweaks

/// The options every command that runs Lua shares: the home and its application, the limits, the
/// start-up scripts.
struct RuntimeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The application's home folder.",
        discussion: "Default: for run, a fresh temporary home; otherwise $ENVSCRIPT_HOME, else .envscript/home under the current folder.",
        valueName: "dir"))
    var home: String?

    @Option(name: .customLong("app-id"), help: ArgumentHelp(
        "The application whose files to use in the home, such as com.example.shop.",
        discussion: "Default: the identifier recorded in the home by the first host that opened it, else envscript. An identifier other than the recorded one is refused. A home with none recorded gets this one (or envscript) from the first command that writes the application's data: tweak set, tweak delete, run.",
        valueName: "id"))
    var appID: String?

    @Option(help: ArgumentHelp(
        "Most VM instructions per call into Lua (0: no limit).",
        discussion: "Default: 100000000; for repl, no limit (Ctrl-C stops a statement); for run, no limit (its per-stage time limit, --test-timeout, stops a runaway test).", valueName: "n"))
    var instructionLimit: Int?

    /// The instruction limit of commands that run unattended, when none is given.
    static let defaultInstructionLimit = 100_000_000

    @Option(help: ArgumentHelp(
        "How long a change of the home waits for each running host attached to it, in seconds.", valueName: "seconds"))
    var hostTimeout: Double = 10

    @Option(help: ArgumentHelp(
        "How long each container hook (on_will_change, on_did_change) may run, in seconds; a will-change hook that takes longer cancels its switch.",
        discussion: "Default: no limit beyond the instruction budget.", valueName: "seconds"))
    var hookTimeout: Double?

    @Option(help: ArgumentHelp("Most memory Lua may hold, in MiB (0: no limit).", discussion: "Default: 256.", valueName: "mib"))
    var memoryLimit: Int?

    /// The memory limit when none is given, in MiB.
    static let defaultMemoryLimit = 256

    @Option(name: .customLong("allow"), help: ArgumentHelp(
        "Open a library beyond the sandbox: io, os or debug (repeatable).", valueName: "library"))
    var allowed: [LibraryName] = []

    @Option(name: .customLong("allow-read"), help: ArgumentHelp(
        "Let scripts read files under this folder too (repeatable); by default they read only under the current folder and the folders of the scripts given.",
        valueName: "dir"))
    var readableFolders: [String] = []

    @Option(name: .customLong("allow-write"), help: ArgumentHelp(
        "Let scripts write files under this folder too (container.export; repeatable); by default only under the project folders.",
        valueName: "dir"))
    var writableFolders: [String] = []

    @Option(name: .customLong("allow-net"), help: ArgumentHelp(
        "Let scripts reach this host (tweak.remote; repeatable): HOST for any port, HOST:PORT, [::1]:PORT, or * for any host. By default scripts reach no host.",
        valueName: "host[:port]"))
    var networkHosts: [String] = []

    @Option(name: .customLong("init"), help: ArgumentHelp(
        "A start-up script to load before anything else (repeatable, in order).", valueName: "file"))
    var initScripts: [String] = []

    @Flag(name: .customLong("no-init"), help: "Do not load the envscript.lua found from the current folder (or the scripts' folder) upwards.")
    var skipAutomaticInit = false

    func validate() throws {
        if let home, home.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--home must name a folder, not an empty text; leave it out for the default home")
        }
        if let instructionLimit, instructionLimit < 0 {
            throw ValidationError("--instruction-limit must be 0 (no limit) or a positive number of instructions, not \(instructionLimit)")
        }
        try Self.validateSeconds(hostTimeout, option: "--host-timeout")
        if let hookTimeout { try Self.validateSeconds(hookTimeout, option: "--hook-timeout") }
        if let memoryLimit { try Self.validateMemoryLimit(memoryLimit, option: "--memory-limit") }
        for (flag, folders) in [("--allow-read", readableFolders), ("--allow-write", writableFolders)] {
            if folders.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                throw ValidationError("\(flag) must name a folder, not an empty text")
            }
        }
        for host in networkHosts {
            if let problem = ScriptPermissions.problem(withHost: host) { throw ValidationError("--allow-net: \(problem)") }
        }
        if let appID {
            do {
                try ApplicationID.validate(appID)
            } catch {
                throw ValidationError("--app-id: \(error)")
            }
        }
    }

    /// Takes the grants and limits a project's `.busted` gives in its `envscript` table (`allow`,
    /// `allow-read`, `allow-write`, `allow-net`: added to the command line's; `instruction-limit`,
    /// `memory-limit`, `hook-timeout`: where the command line gives none), and says on standard error
    /// what it granted: a grant is never silent.
    mutating func adopt(_ grants: [String: BustedConfiguration.Value], from file: String) throws {
        func texts(_ key: String) throws -> [String] {
            switch grants[key] {
            case nil: return []
            case .text(let text)?: return [text]
            case .list(let items)?:
                return try items.map {
                    guard case .text(let text) = $0 else { throw CommandFailure.usage("\(file): envscript's '\(key)' must be a list of texts") }
                    return text
                }
            default: throw CommandFailure.usage("\(file): envscript's '\(key)' must be a text or a list of texts")
            }
        }
        func number(_ key: String) throws -> Int? {
            switch grants[key] {
            case nil: return nil
            case .number(let value)? where value == value.rounded() && abs(value) < 1e15: return Int(value)
            default: throw CommandFailure.usage("\(file): envscript's '\(key)' must be a whole number")
            }
        }
        var granted: [String] = []
        for name in try texts("allow") {
            guard let library = LibraryName(rawValue: name) else {
                throw CommandFailure.usage("\(file): envscript's 'allow' names io, os or debug, not '\(name)'")
            }
            if !allowed.contains(library) { allowed.append(library) }
            granted.append("--allow \(name)")
        }
        for (key, list) in [("allow-read", \RuntimeOptions.readableFolders), ("allow-write", \.writableFolders), ("allow-net", \.networkHosts)] {
            for value in try texts(key) {
                if key == "allow-net", let problem = ScriptPermissions.problem(withHost: value) {
                    throw CommandFailure.usage("\(file): envscript's 'allow-net': \(problem)")
                }
                self[keyPath: list].append(value)
                granted.append("--\(key) \(value)")
            }
        }
        if instructionLimit == nil, let limit = try number("instruction-limit") {
            guard limit >= 0 else { throw CommandFailure.usage("\(file): envscript's 'instruction-limit' must be 0 (no limit) or a positive number") }
            instructionLimit = limit
        }
        if memoryLimit == nil, let limit = try number("memory-limit") {
            try Self.validateMemoryLimit(limit, option: "memory-limit in \(file)")
            memoryLimit = limit
        }
        if hookTimeout == nil, let seconds = try RunCommand.seconds(grants["hook-timeout"], key: "hook-timeout", in: file) {
            try Self.validateSeconds(seconds, option: "hook-timeout in \(file)")
            hookTimeout = seconds
        }
        let known: Set<String> = ["allow", "allow-read", "allow-write", "allow-net", "instruction-limit", "memory-limit", "hook-timeout", "test-timeout", "timeout"]
        for key in grants.keys.sorted() where !known.contains(key) {
            printError("warning: \(file): envscript's '\(key)' is not an option envscript run takes from .busted (\(known.sorted().joined(separator: ", "))); it is ignored")
        }
        if !granted.isEmpty { printError("envscript: \(file) grants \(granted.joined(separator: ", "))") }
    }

    /// Says on standard error what each `--allow LIBRARY` opens: they reach beyond the permissions.
    private func warnAboutOpenedLibraries() {
        for library in Set(allowed).sorted(by: { $0.rawValue < $1.rawValue }) {
            printError("warning: --allow \(library.rawValue) \(library.warning)")
        }
    }

    /// Refuses a number of MiB outside [0, 1048576].
    static func validateMemoryLimit(_ mebibytes: Int, option: String) throws {
        guard mebibytes >= 0, mebibytes <= 1 << 20 else {
            throw ValidationError("\(option) must be a number of MiB from 0 (no limit) to 1048576, not \(mebibytes)")
        }
    }

    /// Refuses a number of seconds outside (0, 86400]; with `zeroTurnsItOff`, 0 (no limit) too is taken.
    static func validateSeconds(_ seconds: Double, option: String, zeroTurnsItOff: Bool = false) throws {
        if zeroTurnsItOff && seconds == 0 { return }
        guard seconds > 0, seconds <= 86_400 else {
            let expected = (zeroTurnsItOff ? "0 (no limit) or " : "") + "a number of seconds above 0 and at most 86400"
            throw ValidationError("\(option) must be \(expected), not \(seconds)")
        }
    }

    /// The home given on the command line or in the environment, else the default: `.envscript/home`
    /// beside the nearest `envscript.lua` from the current folder upwards, or under the current folder
    /// when there is none.
    var configuredHome: URL {
        if let namedHome { return namedHome }
        return URL(fileURLWithPath: (projectFolder(forFiles: []) ?? ".") + "/.envscript/home")
    }

    /// The folder of the `envscript.lua` a command given `files` loads
    /// (``ProjectDiscovery/startupScript(forFiles:)``); nil with `--no-init` or when there is none.
    func projectFolder(forFiles files: [String]) -> String? {
        discoveredStartupScript(forFiles: files).map { script in
            let folder = folderPart(of: script)
            return folder.isEmpty ? "." : folder
        }
    }

    /// The home given with `--home` or in `$ENVSCRIPT_HOME`, nil when neither names one.
    var namedHome: URL? {
        if let home { return URL(fileURLWithPath: home) }
        if let fromEnvironment = EnvironmentVariable.value("ENVSCRIPT_HOME"), !fromEnvironment.isEmpty {
            return URL(fileURLWithPath: fromEnvironment)
        }
        return nil
    }

    /// Refuses a home named with `--home` or `$ENVSCRIPT_HOME` that does not exist (a usage error), for
    /// commands that only read a home: they must not create one, least of all a mistyped path. The
    /// default home, `.envscript/home`, is envscript's own and is made on first use by any command.
    func requireExistingHome() throws {
        guard let named = namedHome, !FileManager.default.fileExists(atPath: named.path) else { return }
        let origin = home != nil ? "--home" : "$ENVSCRIPT_HOME"
        throw CommandFailure.usage(
            "the home folder '\(named.path)' (\(origin)) does not exist, and this command only reads a home, so it creates none; "
                + "check the path, or create the home with a command that changes it (such as container create)")
    }

    /// The `envscript.lua` a command given `files` loads (``ProjectDiscovery/startupScript(forFiles:)``),
    /// nil with `--no-init` or when there is none. A command given no files (all but `run`, whose
    /// scenarios belong to the project they sit in) that finds none loads the one recorded for the home
    /// named with `--home` or `$ENVSCRIPT_HOME` (``ProjectDiscovery/recordedStartupScript(home:)``),
    /// so that it sees the application's stack and hooks from any folder.
    func discoveredStartupScript(forFiles files: [String]) -> String? {
        guard !skipAutomaticInit else { return nil }
        let discovery = ProjectDiscovery()
        if let found = discovery.startupScript(forFiles: files) { return found }
        guard files.isEmpty, let namedHome else { return nil }
        return discovery.recordedStartupScript(home: namedHome)
    }

    /// What watch mode watches besides `files`: the start-up scripts, and where a new `envscript.lua`
    /// would be found (nothing is searched with --no-init), each once. Searches afresh.
    func watchedStartupPaths(forFiles files: [String]) -> [String] {
        ProjectDiscovery.forgetSearches()
        let discovery = ProjectDiscovery()
        let searched = skipAutomaticInit ? [] : discovery.searchedPaths(forFiles: files)
        return searched + initScripts.filter { !searched.contains(discovery.absolute($0)) }
    }

    /// The start-up scripts to load, in order: the discovered `envscript.lua`, then each `--init`.
    func startupScripts(forFiles files: [String]) -> [String] {
        (discoveredStartupScript(forFiles: files).map { [$0] } ?? []) + initScripts
    }

    /// One line naming the start-up scripts a command given `files` loads, or saying why there are
    /// none: the first line of `run`'s pretty report, and the REPL's greeting.
    func startupScriptsLine(forFiles files: [String]) -> String {
        let scripts = startupScripts(forFiles: files).map(ReportText.oneLine)
        if scripts.count > 1 { return "Start-up scripts: " + scripts.joined(separator: ", ") }
        if let script = scripts.first { return "Start-up script: \(script)" }
        if skipAutomaticInit { return "Start-up script: none (--no-init)" }
        return "Start-up script: none (no \(ProjectDiscovery.startupScriptName) in the current folder, the scripts' folder or any folder above them)"
    }

    /// The Lua options: the limits, the opted-in libraries, and script roots for `require`
    /// (the current folder and the folder of every script given).
    func luaOptions(startupScripts: [String], scripts: [String], budgetByDefault: Bool = true) -> LuaOptions {
        let instructionLimit = instructionLimit ?? (budgetByDefault ? Self.defaultInstructionLimit : 0)
        let memoryLimit = memoryLimit ?? Self.defaultMemoryLimit
        // The project's folder first: its modules win over the current folder's.
        var roots = (projectFolder(forFiles: scripts).map { [$0] } ?? []) + ["."]
        for script in startupScripts + scripts {
            // A pipe or a device (`/dev/stdin`) adds no folder; a link (`/dev/stdin < tool.lua`) its
            // file's real folder.
            guard let real = ScriptFile.projectFolder(ofScriptAt: script) else { continue }
            let folder = folderPart(of: script)
            let named = folder.isEmpty ? "." : folder
            let root = URL(fileURLWithPath: named).resolvingSymlinksInPath().path == real ? named : real
            if !roots.contains(root) { roots.append(root) }
        }
        return LuaOptions(
            memoryLimit: memoryLimit == 0 ? nil : memoryLimit << 20,
            instructionLimit: instructionLimit == 0 ? nil : instructionLimit,
            libraries: allowed.reduce(into: LuaLibraries()) { $0.formUnion($1.library) },
            scriptRoots: roots)
    }

    /// Opens a host over the configured home, loads the start-up scripts, runs `body` and closes the
    /// host. Errors of the engines end the command with status 1, load errors with status 2.
    ///
    /// - Parameters:
    ///   - writesApplicationData: whether the command writes the application's data (flags, state), so
    ///     that a home with no application identifier recorded gets the one used.
    ///   - readsOnly: whether the command only reads the home, so that a home it names that does not
    ///     exist is refused instead of created (``requireExistingHome()``).
    func withHost(writesApplicationData: Bool = false, readsOnly: Bool = false, _ body: (EnvScriptHost) throws -> Void) throws {
        if readsOnly { try requireExistingHome() }
        let host = try openHost(home: configuredHome, scripts: [], writesApplicationData: writesApplicationData)
        defer { host.close() }
        do {
            try body(host)
        } catch {
            throw ErrorReport.failure(for: error)
        }
    }

    /// Opens a host over `home` as the application `--app-id` names (else the one recorded in the home,
    /// else `envscript`) and loads the start-up scripts; their failures are load errors, and so is a
    /// home that belongs to another application than `--app-id`.
    ///
    /// - Parameter attaches: whether the host attaches to the home for as long as it runs (`run` does),
    ///   taking part in the switches other processes make.
    /// - Parameter startupLimit: a wall-clock limit on the start-up scripts (`run --timeout`).
    /// - Parameter budgetByDefault: whether the instruction budget applies when `--instruction-limit`
    ///   is not given: not at a prompt, where Ctrl-C stops a statement (`repl`), nor in `run`, whose
    ///   per-stage time limit stops a runaway test.
    /// - Parameter watchesStartupScripts: reload the start-up scripts when they change (`ui --watch`).
    /// - Parameter opened: called with the host before the start-up scripts run (watch mode hands its
    ///   interrupter to Ctrl-C).
    func openHost(
        home: URL, scripts: [String], writesApplicationData: Bool, attaches: Bool = false,
        startupLimit: (seconds: Double, reason: String)? = nil, budgetByDefault: Bool = true,
        watchesStartupScripts: Bool = false, opened: (EnvScriptHost) -> Void = { _ in }
    ) throws -> EnvScriptHost {
        let startupScripts = startupScripts(forFiles: scripts)
        let host: EnvScriptHost
        do {
            var configuration = HostConfiguration(
                home: home, appID: appID, recordsAppID: writesApplicationData,
                lua: luaOptions(startupScripts: startupScripts, scripts: scripts, budgetByDefault: budgetByDefault),
                attachesToHome: attaches, participationTimeout: .seconds(hostTimeout))
            configuration.role = .tool
            configuration.watchesStartupScripts = watchesStartupScripts
            configuration.scriptPathBase = projectFolder(forFiles: scripts).map {
                URL(fileURLWithPath: ProjectDiscovery().absolute($0), isDirectory: true)
            }
            configuration.hookTimeout = hookTimeout.map { .seconds($0) }
            configuration.permissions = ScriptPermissions(
                readableFolders: readableFolders.map { URL(fileURLWithPath: $0) },
                writableFolders: writableFolders.map { URL(fileURLWithPath: $0) },
                networkHosts: networkHosts)
            warnAboutOpenedLibraries()
            configuration.tweakKeys = .environment(CipherKeyOptions.environmentVariable)
            host = try EnvScriptHost(configuration: configuration)
        } catch {
            throw ErrorReport.failure(for: error)
        }
        opened(host)
        let projectScript = discoveredStartupScript(forFiles: scripts)
        for script in startupScripts {
            // The project's envscript.lua is recorded in the home (by a command that claims it); --init
            // scripts are the command's own.
            let run = { script == projectScript ? try host.runStartupScript(atPath: script) : try host.runScript(atPath: script) }
            do {
                if let startupLimit {
                    // Under the host's lock, so a hook run meanwhile for another process cannot
                    // interleave its own limit with this one.
                    _ = try host.lock.withLock {
                        try host.lua.withTimeLimit(seconds: startupLimit.seconds, reason: startupLimit.reason) { try run() }
                    }
                } else {
                    _ = try run()
                }
            } catch {
                var failure = ErrorReport.failure(for: error)
                // A start-up script stopped by --timeout is a failed run, not an input error.
                if (error as? LuaError)?.kind != .timeLimit { failure.status = ExitStatus.usage }
                failure.message = "in start-up script \(script): \(failure.message)"
                throw failure
            }
        }
        // A command answers from the server, not from whichever copy the home kept: it waits for the first
        // fetch of each remote and OFREP provider, which ends — with tweaks or with an error — within its
        // own timeout.
        if let longest = host.longestRemoteTimeout {
            _ = host.waitUntilRemoteTweaksFetchedBlocking(timeout: .seconds(longest + 1))
        }
        return host
    }
}
