import ArgumentParser
import Containers
import Foundation

extension ContainerCommand {
    /// `envscript container doctor [--repair] [--json]`: every inconsistency of a home, repaired on request.
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check the home for inconsistencies; with --repair, repair what can be repaired without losing data.",
            discussion: """
                Checks the bookkeeping: container records, the state record, a journal left or moved away \
                (journal.json.*), a half-switched home, stray entries, temporary files, modes. Without \
                --repair it changes nothing and exits 1 when it finds anything. With --repair it holds the \
                home's lock, moves what it cannot read into .envscript-containers/quarantine, and exits 1 \
                when something remains.
                """)
        @OptionGroup var runtime: RuntimeOptions
        @Flag(help: "Repair what can be repaired; nothing is deleted but temporary files and the trash.") var repair = false
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try runtime.requireExistingHome()
            let home = runtime.configuredHome
            let doctor = HomeDoctor(home: home)
            let findings: [HomeDoctorFinding]
            do {
                if !FileManager.default.fileExists(atPath: home.path) {
                    findings = []
                } else if repair {
                    findings = try doctor.repair()
                } else {
                    findings = try doctor.examine().map { HomeDoctorFinding(inconsistency: $0, outcome: .found) }
                }
            } catch {
                throw ErrorReport.failure(for: error)
            }
            let quarantine = FileManager.default.fileExists(atPath: doctor.quarantineFolder) ? doctor.quarantineFolder : nil
            if json {
                try printJSON(DoctorReport(home: home.path, findings: findings, quarantineFolder: quarantine))
            } else {
                printText(findings, home: home.path, quarantine: quarantine)
            }
            let failed = repair ? findings.contains { $0.outcome == .remains } : !findings.isEmpty
            if failed { throw CommandFailure(message: "", status: ExitStatus.failure) }
        }

        private func printText(_ findings: [HomeDoctorFinding], home: String, quarantine: String?) {
            for finding in findings {
                let item = finding.inconsistency
                print("\(item.kind.title): '\(item.path)'")
                print("  problem: \(item.problem)")
                switch finding.outcome {
                case .found: print(item.isRepairable ? "  --repair will: \(item.repair)" : "  to do by hand: \(item.repair)")
                case .repaired: print("  repaired: \(finding.note ?? item.repair)")
                case .remains: print("  remains: \(finding.note ?? item.repair)")
                }
            }
            let count = findings.count
            let noun = count == 1 ? "inconsistency" : "inconsistencies"
            if count == 0 {
                print("the home '\(home)' is consistent")
            } else if !repair {
                let repairable = findings.filter(\.inconsistency.isRepairable).count
                print("\(count) \(noun) found in the home '\(home)'; 'envscript container doctor --repair' repairs \(repairable) of them")
            } else {
                let remaining = findings.filter { $0.outcome == .remains }.count
                print("repaired \(count - remaining) of \(count) \(noun) in the home '\(home)'" + (remaining > 0 ? "; \(remaining) \(remaining == 1 ? "remains" : "remain")" : ""))
            }
            if repair, let quarantine { print("quarantined files are in '\(quarantine)'") }
        }
    }
}

/// What `envscript container doctor --json` prints.
struct DoctorReport: Encodable {
    struct Entry: Encodable {
        var kind: String
        var path: String
        var problem: String
        var repair: String
        var isRepairable: Bool
        /// `found` (no repair asked for), `repaired` or `remains`.
        var outcome: String
        /// What the repair did, or why it remains.
        var note: String?
    }

    var home: String
    var isConsistent: Bool
    var inconsistencies: [Entry]
    /// Where repairs put what they cannot read, when that folder exists.
    var quarantineFolder: String?

    init(home: String, findings: [HomeDoctorFinding], quarantineFolder: String?) {
        self.home = home
        isConsistent = !findings.contains { $0.outcome != .repaired }
        inconsistencies = findings.map { finding in
            let item = finding.inconsistency
            return Entry(
                kind: item.kind.rawValue, path: item.path, problem: item.problem, repair: item.repair,
                isRepairable: item.isRepairable, outcome: finding.outcome.rawValue, note: finding.note)
        }
        self.quarantineFolder = quarantineFolder
    }
}
