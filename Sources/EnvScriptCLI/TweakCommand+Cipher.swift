import ArgumentParser
import EnvScript
import Foundation
import Tweaks

/// `envscript tweak keygen`, `seal` and `unseal`: the built-in cipher of secret flag values.
extension TweakCommand {
    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Add a new random key to a key file of the tweak cipher; it seals new values from then on.",
            discussion: """
                Creates FILE readable by its owner only (mode 600) when it does not exist. Keep the key file \
                outside the home and out of version control; keep older keys while values sealed with them \
                remain. --demo marks a key that is no secret (one committed beside examples).
                """)
        @Option(help: ArgumentHelp("The key file to add to.", valueName: "file")) var keyFile: String
        @Option(help: ArgumentHelp("The new key's id (default: k1, k2, ...).", valueName: "id")) var id: String?
        @Flag(help: "Mark the key as a demo key: no secret, allowed in a file others may read.") var demo = false

        func validate() throws {
            if let id {
                do { try TweakCipherKey.validate(id: id) } catch { throw ValidationError("--id: \(error)") }
            }
        }

        func run() throws {
            do {
                let (key, ring) = try TweakKeyFile.addGeneratedKey(to: URL(fileURLWithPath: keyFile), id: id, isDemo: demo)
                print("added key '\(key.id)' to \(keyFile); it seals new values from now on (keys: \(ring.ids.joined(separator: ", ")))")
                if demo { printError("note: '\(key.id)' is a demo key: never seal a real secret with it") }
            } catch let error as TweakCipherError {
                throw CommandFailure(message: "\(error)", status: error.exitStatus)
            }
        }
    }

    struct Seal: NegativeNumberValueCommand {
        static let configuration = CommandConfiguration(
            commandName: "seal",
            abstract: "Seal a value for a tweaks file (\"Value\": the text printed, \"Encrypted\": true).",
            discussion: """
                VALUE reads as true/false, an integer, a decimal number, or else a string, as in tweak set; \
                --string keeps it a string, --json reads JSON. The value is sealed with the last key of the \
                key file (or --key-id) using AES-256-GCM; the text printed names the key.
                """)
        @OptionGroup var runtime: RuntimeOptions
        @OptionGroup var keys: CipherKeyOptions
        @Argument(help: "The value to seal.") var value: String
        @Option(help: ArgumentHelp("Seal with this key instead of the last one.", valueName: "id")) var keyID: String?
        @Flag(help: "Seal the value as a string whatever it looks like.") var string = false
        @Flag(help: "Read the value as JSON.") var json = false

        var argumentsBeforeValue: [String] { [] }

        func validate() throws {
            if string && json { throw ValidationError("--string and --json cannot be given together") }
            if json { _ = try JSONValue.commandLineJSON(value) }
        }

        func run() throws {
            let parsed = json ? try JSONValue.commandLineJSON(value) : JSONValue(parsing: value, forceString: string)
            let cipher = try keys.cipher(runtime: runtime)
            let key = keyID.map { cipher.keyring.key(id: $0) } ?? cipher.keyring.sealingKey
            if let keyID, key == nil {
                throw CommandFailure.usage("--key-id: there is no key '\(keyID)'; the keys are \(cipher.keyring.ids.map { "'\($0)'" }.joined(separator: ", "))")
            }
            do {
                let sealed = try cipher.seal(parsed, keyID: keyID)
                if let key, key.isDemo {
                    printError("warning: sealed with demo key '\(key.id)', which is no secret; use a key of your own for real secrets")
                }
                print(sealed)
            } catch let error as TweakCipherError {
                throw CommandFailure(message: "\(error)", status: error.exitStatus)
            }
        }
    }

    struct Unseal: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unseal",
            abstract: "Open a sealed value and print it (a string as it is, anything else as JSON).",
            discussion: "Exit status 2 for a text that is not a sealed value, 1 for one no key can open (unknown key, wrong key, changed or cut short).")
        @OptionGroup var runtime: RuntimeOptions
        @OptionGroup var keys: CipherKeyOptions
        @Argument(help: "The sealed text (es1:KEY-ID:BASE64).") var text: String

        func run() throws {
            let cipher = try keys.cipher(runtime: runtime)
            do {
                let value = try cipher.open(text)
                print(value.stringValue ?? value.jsonText)
            } catch let error as TweakCipherError {
                throw CommandFailure(message: "cannot unseal: \(error)", status: error.exitStatus)
            }
        }
    }
}

extension JSONValue {
    /// A value given as JSON on the command line (`--json`).
    static func commandLineJSON(_ text: String) throws -> JSONValue {
        guard let value = try? JSONValue(jsonText: Data(text.utf8)), !value.containsNull else {
            throw ValidationError("--json: '\(text)' is not a JSON value a flag can hold (an object, an array, a number, a string in quotes, true or false; no null)")
        }
        return value
    }
}
