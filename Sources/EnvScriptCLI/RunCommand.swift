import ArgumentParser
import EnvScript
import Foundation

/// `envscript run FILE...`: runs scripts in the sandbox, in order, in one Lua state.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run Lua scripts in the sandbox.",
        discussion: """
            Scripts run in order in one Lua state, after the start-up scripts. Without --home each run \
            gets a fresh temporary home, removed afterwards. A script error prints file:line, the \
            message and the traceback, and exits 1; usage and load errors exit 2.
            """)

    @OptionGroup var runtime: RuntimeOptions

    @Argument(help: ArgumentHelp("The Lua scripts to run.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if files.isEmpty { throw ValidationError("Missing a script to run: envscript run FILE...") }
    }

    func run() throws {
        let temporaryHome = runtime.home == nil
            ? FileManager.default.temporaryDirectory.appendingPathComponent("envscript-run-\(UUID().uuidString)")
            : nil
        defer { if let temporaryHome { try? FileManager.default.removeItem(at: temporaryHome) } }
        let home = temporaryHome ?? runtime.configuredHome
        do {
            let host = try runtime.openHost(home: home, scripts: files)
            defer { host.close() }
            // Compile everything first, so a syntax error in the last file runs nothing.
            let chunks = try files.map { try host.compileScript(atPath: $0) }
            for chunk in chunks { try chunk.call() }
        } catch {
            throw ErrorReport.failure(for: error)
        }
    }
}
