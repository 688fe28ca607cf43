import ArgumentParser
import Containers
import EnvScript
import EnvScriptControl
import Foundation

/// `envscript reload`: every running application attached to the home runs its start-up scripts again
/// and puts them in force whole, or keeps the ones it has.
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Make the running hosts of a home run their start-up scripts again.",
        discussion: """
            Each running host attached to the home (an application embedding EnvScript, envscript ui) runs \
            the start-up scripts it loaded, read anew from their files, and swaps in what they set up — \
            provider stack, decryptor, cipher, hooks, Lua providers, on_change handlers — or, when one fails, \
            keeps its scripts and says why (file, line, message). State, overrides and containers stay. \
            Exit status: 0 every host reloaded; 1 one kept its scripts, or no host is running; 2 usage errors.
            """)

    @OptionGroup var runtime: RuntimeOptions
    @Option(help: ArgumentHelp("How long to wait for each host's answer, in seconds.", valueName: "seconds"))
    var timeout: Double = 30
    @Flag(help: "Print each host's outcome as JSON.") var json = false

    func validate() throws {
        try RuntimeOptions.validateSeconds(timeout, option: "--timeout")
    }

    func run() throws {
        try runtime.requireExistingHome()
        let home = runtime.configuredHome
        let outcomes = try HostReloads.reloadAll(home: home, timeout: .milliseconds(Int64(timeout * 1000)))
        if outcomes.isEmpty {
            throw CommandFailure.failure("no running host is attached to the home \(home.path): nothing to reload (a host reloads what it loaded; start the application, or envscript ui, first)")
        }
        if json {
            try printJSON(outcomes.map(ReloadOutcomeLine.init))
        } else {
            for outcome in outcomes {
                let who = "pid \(outcome.host.pid) (\(outcome.host.appID), \(outcome.host.role))"
                switch outcome.result {
                case .success(let report):
                    let scripts = report.scripts.count == 1 ? "1 start-up script" : "\(report.scripts.count) start-up scripts"
                    print("\(who): reloaded \(scripts) in \(String(format: "%.1f", report.milliseconds)) ms; providers: \(report.providers.joined(separator: ", "))")
                case .failure(let failure):
                    printError("\(who): \(failure.message)")
                }
            }
        }
        // Each host that kept its scripts said why above.
        if outcomes.contains(where: { if case .failure = $0.result { true } else { false } }) {
            throw CommandFailure(message: "", status: ExitStatus.failure)
        }
    }
}

/// One host's outcome as `envscript reload --json` prints it.
private struct ReloadOutcomeLine: Encodable {
    var pid: Int32
    var appID: String
    var role: String
    var reloaded: Bool
    var report: ScriptReloadReport?
    var error: String?

    init(_ outcome: HostReloads.Outcome) {
        pid = outcome.host.pid
        appID = outcome.host.appID
        role = "\(outcome.host.role)"
        switch outcome.result {
        case .success(let report):
            reloaded = true
            self.report = report
        case .failure(let failure):
            reloaded = false
            error = failure.message
        }
    }
}
