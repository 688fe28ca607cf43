import ArgumentParser
import EnvScript
import EnvScriptPanel
import Foundation

/// `envscript ui`: serves the control panel of a home until interrupted.
struct UICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "Serve the control panel of a home: its containers, flags, state and scenarios in a browser.",
        discussion: """
            Prints the address to open, with its access token, and serves until interrupted (Ctrl-C). \
            The panel listens on 127.0.0.1 only, unless --bind names another address; every request \
            must carry the token, and requests from other sites are refused. While an application is \
            attached to the home, the panel shows that application (its flags, its state in memory) and \
            its changes go to it; otherwise the command serves the home itself. Either way, switches \
            made from the panel take every running host of the home along.

            Exit status: 0 stopped by an interrupt; 1 the panel could not start; 2 usage errors.
            """)

    @OptionGroup var runtime: RuntimeOptions

    @Option(help: ArgumentHelp("The TCP port to listen on (0: any free port).", valueName: "port"))
    var port: Int = 0

    @Option(name: .customLong("bind"), help: ArgumentHelp(
        "Listen on this address instead of 127.0.0.1. Anyone who reaches it with the token can change the home.",
        valueName: "address"))
    var bindAddress: String = "127.0.0.1"

    @Flag(help: "Open the panel in the default browser (xdg-open), through a private page that holds the token (the browser's command line does not).")
    var open = false

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Close a connection that sends no request for this many seconds, or takes as long to send a request's head.",
        valueName: "seconds"))
    var idleTimeout: Double = 30

    @Option(name: .customLong("allow-origin"), help: ArgumentHelp(
        "Let pages of this origin (such as http://localhost:5173, a web app's dev server) call the OFREP routes with the token as Authorization: Bearer, as a browser's OpenFeature provider does. Repeatable.",
        valueName: "origin"))
    var allowedOrigins: [String] = []

    @Option(help: ArgumentHelp(
        "The folder of scenario files the Scenarios page runs (default: scenarios/ when it exists). Each run gets a fresh temporary home, as envscript run does.",
        valueName: "dir"))
    var scenarios: String?

    @Flag(help: "Reload the start-up script (envscript.lua) when it, or a file it requires, changes; a script that fails is reported and the one in force goes on.")
    var watch = false

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, got \(port)")
        }
        if bindAddress.isEmpty { throw ValidationError("--bind needs an address, such as 127.0.0.1") }
        do {
            _ = try AllowedOrigins(allowedOrigins)
        } catch {
            throw ValidationError("--allow-origin: \(error)")
        }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be a number of seconds above 0 and at most 86400, got \(idleTimeout)")
        }
        if let scenarios, !isFolder(scenarios) {
            throw ValidationError("--scenarios: \(scenarios) is not a folder; give the folder that holds the scenario files")
        }
    }

    /// The scenario folder given, or `scenarios/` when it exists; nil for none.
    private func scenarioFolder() -> URL? {
        guard let path = scenarios ?? (isFolder("scenarios") ? "scenarios" : nil) else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    func run() throws {
        let home = runtime.configuredHome
        let host = try runtime.openHost(
            home: home, scripts: [], writesApplicationData: true, attaches: true, watchesStartupScripts: watch)
        defer { host.close() }
        let panel: PanelServer
        let scenarioFolder = scenarioFolder()
        do {
            let runtime = runtime
            // A run opens its host as `envscript run` would, start-up scripts included, over its own home.
            let scenarios = scenarioFolder.map { folder in
                PanelScenarios(folder: folder) { home, files in
                    try runtime.openHost(home: home, scripts: files, writesApplicationData: true)
                }
            }
            panel = try host.servePanel(
                port: port, bindHost: bindAddress, scenarios: scenarios, followsApplication: true,
                limits: ServerLimits(idleTimeout: .milliseconds(Int64((idleTimeout * 1000).rounded(.up)))),
                allowedOrigins: try AllowedOrigins(allowedOrigins))
        } catch {
            throw CommandFailure(message: "\(error)", status: ExitStatus.failure)
        }
        defer { panel.stop() }
        if !["127.0.0.1", "localhost", "::1"].contains(bindAddress) {
            printError("warning: the panel listens on \(bindAddress), not only on this machine: anyone who reaches it with the token can change the home")
        }
        print("EnvScript panel of \(home.path)")
        if let folder = scenarioFolder { print("Scenarios from \(folder.path)") }
        if watch { print("Reloads the start-up script when it changes.") }
        print("Open \(panel.url.absoluteString)")
        print("Stop with Ctrl-C.")
        flushStandardOutput()
        let redirect = open ? openInBrowser(panel.url) : nil
        defer { redirect?.remove() }
        InterruptSignal.wait()
    }

    /// Opens `url` in the default browser through a private page that leads to it (the browser's
    /// command line, which every local user can read, never holds the token); returns the page, to
    /// be removed when the panel stops.
    private func openInBrowser(_ url: URL) -> PanelRedirectFile? {
        let page: PanelRedirectFile
        do {
            page = try PanelRedirectFile(leadingTo: url)
        } catch {
            let reason = (error as? CommandFailure)?.message ?? "\(error)"
            printError("warning: could not open a browser (\(reason)); open the address above yourself")
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", page.url.absoluteString]
        do {
            try process.run()
        } catch {
            printError("warning: could not open a browser (\(error)); open the address above yourself")
        }
        return page
    }
}
