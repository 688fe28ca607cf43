import ArgumentParser
import Foundation
import Tweaks

extension TweakCommand {
    /// `envscript tweak validate FILE...`: tweak files checked without an app, for CI.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check tweak files without an app: every problem of every file, for a team's CI.",
            discussion: """
                Reports syntax errors (file:line:column), variables without a Value or with a null, metadata of \
                the wrong type, unknown fields (a misspelt Titel), names written twice, a flag whose type differs \
                between files, and sealed values (es1:) the keys cannot open. A flagd file (one with "flags") is \
                checked against flagd's schema, strictly: a rule that cannot be evaluated, a flag without state, \
                variants of mixed types or an array, a fractional weight that is not a whole number of at least 0. Keys: --key-file, else \
                $ENVSCRIPT_TWEAK_KEYS; no start-up script is run. Exit status 1 when anything is found.
                """)
        @Argument(help: ArgumentHelp("The tweak files or flagd files (JSON).", valueName: "file")) var files: [String]
        @Option(help: ArgumentHelp("A key file of the tweak cipher, to open sealed values with.", valueName: "file"))
        var keyFile: String?
        @Flag(help: "Print JSON for tools: {files, flags, opened, unchecked_encrypted, problems: [{file, line, column, key, message}]}.")
        var json = false

        func validate() throws {
            if files.isEmpty { throw ValidationError("give the tweak files to check") }
        }

        func run() throws {
            let report = TweakFileValidator.validate(files: files, cipher: try cipher())
            if json {
                try printJSON(ValidationPayload(report))
            } else {
                for problem in report.problems { print(problem) }
                let flags = "\(report.flagCount) flag\(report.flagCount == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s")"
                var notes: [String] = []
                if report.openedCount > 0 { notes.append("\(report.openedCount) sealed value\(report.openedCount == 1 ? "" : "s") opened") }
                if report.uncheckedEncryptedCount > 0 {
                    notes.append("\(report.uncheckedEncryptedCount) encrypted value\(report.uncheckedEncryptedCount == 1 ? "" : "s") in another format left to a decryptor")
                }
                let tail = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
                if report.isValid {
                    print("ok: \(flags)\(tail)")
                } else {
                    print("\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"): \(flags)\(tail)")
                }
            }
            if !report.isValid { throw CommandFailure(message: "", status: ExitStatus.failure) }
        }

        /// The keys of `--key-file` and `$ENVSCRIPT_TWEAK_KEYS`, or nil when neither is given.
        private func cipher() throws -> TweakCipher? {
            try CipherKeyOptions.keyring(keyFile: keyFile).map { TweakCipher(keyring: $0) }
        }
    }

    /// `tweak validate --json`.
    struct ValidationPayload: Encodable {
        struct Problem: Encodable {
            let file: String
            let line: Int?
            let column: Int?
            let key: String?
            let message: String
        }

        let files: [String]
        let flags: Int
        let opened: Int
        let uncheckedEncrypted: Int
        let problems: [Problem]

        init(_ report: TweakFileValidator.Report) {
            files = report.files
            flags = report.flagCount
            opened = report.openedCount
            uncheckedEncrypted = report.uncheckedEncryptedCount
            problems = report.problems.map { problem in
                switch problem.reason {
                case .invalidJSON(let file, let line, let column, let key, let reason):
                    return Problem(file: file, line: line, column: column, key: key, message: reason)
                case .readFailed(let file, let reason):
                    return Problem(file: file, line: nil, column: nil, key: nil, message: "cannot read it: \(reason)")
                default:
                    return Problem(file: "", line: nil, column: nil, key: nil, message: "\(problem)")
                }
            }
        }

        enum CodingKeys: String, CodingKey {
            case files, flags, opened, problems
            case uncheckedEncrypted = "unchecked_encrypted"
        }
    }
}
