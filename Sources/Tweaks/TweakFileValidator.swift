import Foundation
import Preferences

/// Checks tweak files without an app, for a team's CI (`envscript tweak validate`): every problem of
/// every file at once, not just the first. A flagd file (an object with `flags`) is checked against
/// flagd's schema, strictly (`FlagdSchemaCheck`); the rest of this list is about JustTweak's format.
///
/// - syntax, with file, line and column (one per file: reading stops at a syntax error);
/// - the shape of JustTweak's format: every variable an object with a `Value`, no null, metadata of the
///   right types;
/// - fields no loader reads (a misspelt `Titel`);
/// - the same flag given values of different types in different files (an integer passes for a
///   double), sealed values compared by their opened type;
/// - sealed values (`es1:`) that the cipher's keys cannot open, or that no key was given to check; a
///   sealed value not marked `"Encrypted": true`; an encrypted value that is not text.
///   Encrypted values in another format belong to a hand-written decryptor and are counted, not checked.
package enum TweakFileValidator {
    /// What a validation found.
    package struct Report: Sendable {
        /// The files checked, as given.
        package var files: [String]
        /// How many flags the files define (a flag in two files counts twice).
        package var flagCount: Int
        /// How many sealed values the cipher opened.
        package var openedCount: Int
        /// How many encrypted values are in another format than the cipher's, left to a decryptor.
        package var uncheckedEncryptedCount: Int
        /// Every problem, by file and then line; each is a ``TweakError`` naming its file, line and column.
        package var problems: [TweakError]

        /// Whether nothing was found.
        package var isValid: Bool { problems.isEmpty }
    }

    /// Checks `files` (paths, read from the current folder when relative); sealed values are opened
    /// with `cipher`, or reported as unchecked problems when it is nil.
    package static func validate(files: [String], cipher: TweakCipher?) -> Report {
        var report = Report(files: files, flagCount: 0, openedCount: 0, uncheckedEncryptedCount: 0, problems: [])
        var firstDefinition: [TweakKey: (value: JSONValue, place: String)] = [:]
        for file in files {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                report.problems.append(.readFailed(file: file, reason: FileErrorReason.describe(error)))
                continue
            }
            if let root = try? JSONScanner.parse(data), FlagdSchemaCheck.isFlagdFile(root) {
                let flagd = FlagdSchemaCheck.problems(of: data, file: file)
                report.flagCount += flagd.flagCount
                report.problems += flagd.problems.sorted(by: Self.inDocumentOrder)
                continue
            }
            let reader = TweakDocumentReader(data, file: file, source: file)
            var problems = reader.problems + reader.remarks
            for located in reader.tweaks {
                report.flagCount += 1
                let tweak = located.tweak
                let at = located.fieldLocations["Value"] ?? located.location
                func problem(_ reason: String) -> TweakError {
                    .invalidJSON(file: file, line: at.line, column: at.column, key: "\(tweak.feature).\(tweak.variable).Value", reason: reason)
                }
                // The value whose type the files must agree on: the plain one, or the opened secret.
                let value: JSONValue
                switch (tweak.isEncrypted, tweak.value.sealedText) {
                case (false, .some(let text)):
                    problems.append(problem("looks sealed (\(text.prefix(4))...) but is not marked \"Encrypted\": true, so its ciphertext would be the flag's value; add \"Encrypted\": true"))
                    continue
                case (false, nil):
                    value = tweak.value
                case (true, _) where tweak.value.stringValue == nil:
                    problems.append(problem("is marked \"Encrypted\" but holds \(TweakError.withArticle(tweak.value.typeName)); an encrypted value is text (seal it with envscript tweak seal)"))
                    continue
                case (true, nil):
                    report.uncheckedEncryptedCount += 1
                    continue
                case (true, .some(let text)):
                    guard let cipher else {
                        let key = (try? TweakCipher.keyID(of: text)).map { " with key '\($0)'" } ?? ""
                        problems.append(problem("sealed\(key), but no keys were given to check it; pass --key-file FILE or set $ENVSCRIPT_TWEAK_KEYS"))
                        continue
                    }
                    do {
                        value = try cipher.open(text)
                        report.openedCount += 1
                    } catch {
                        problems.append(problem("the sealed value cannot be opened: \(error)"))
                        continue
                    }
                }
                let place = "\(file):\(at.line):\(at.column)"
                if let first = firstDefinition[tweak.key] {
                    if !first.value.acceptsType(of: value) && !value.acceptsType(of: first.value) {
                        problems.append(problem(
                            "'\(tweak.feature).\(tweak.variable)' is \(TweakError.withArticle(value.typeName)) here but \(TweakError.withArticle(first.value.typeName)) at \(first.place); give every file the same type"))
                    }
                } else {
                    firstDefinition[tweak.key] = (value, place)
                }
            }
            report.problems += problems.sorted(by: Self.inDocumentOrder)
        }
        return report
    }

    private static func inDocumentOrder(_ a: TweakError, _ b: TweakError) -> Bool {
        guard let lineA = a.line, let columnA = a.column, let lineB = b.line, let columnB = b.column else { return false }
        return (lineA, columnA) < (lineB, columnB)
    }
}
