import ArgumentParser
import EnvScript
import Foundation
import Tweaks

/// Where `tweak seal`, `unseal` and `validate` find the cipher's keys: `--key-file` (with
/// `$ENVSCRIPT_TWEAK_KEYS`), else the cipher of the start-up scripts (`tweak.cipher{...}`), else
/// `$ENVSCRIPT_TWEAK_KEYS` alone.
struct CipherKeyOptions: ParsableArguments {
    /// The environment variable that holds keys the command line passes to its hosts.
    static let environmentVariable = "ENVSCRIPT_TWEAK_KEYS"

    @Option(help: ArgumentHelp(
        "A key file of the tweak cipher (default: the start-up scripts' tweak.cipher, else $ENVSCRIPT_TWEAK_KEYS).",
        valueName: "file"))
    var keyFile: String?

    /// The keys of `$ENVSCRIPT_TWEAK_KEYS`, or nil when it is unset; a malformed list is a usage error.
    static func environmentKeys() throws -> TweakCipherKeyring? {
        do {
            return try TweakCipherKeyring.environment(environmentVariable)
        } catch {
            throw CommandFailure.usage("\(error)")
        }
    }

    /// The cipher to use: from `--key-file`, else from the start-up scripts of `runtime` (when a host is
    /// opened for them), else from the environment. A key file that cannot be used is a usage error.
    func cipher(runtime: RuntimeOptions) throws -> TweakCipher {
        let environment = try Self.environmentKeys()
        if let keyFile {
            let url = URL(fileURLWithPath: keyFile)
            do {
                let ring = try (environment ?? TweakCipherKeyring([])).merged(
                    with: try TweakCipherKeyring.load(file: url), origin: keyFile)
                return TweakCipher(keyring: ring, keyFile: url)
            } catch {
                throw CommandFailure.usage("--key-file: \(error)")
            }
        }
        var fromScripts: TweakCipher?
        try runtime.withHost { host in fromScripts = host.tweaks.cipher }
        if let fromScripts { return fromScripts }
        if let environment { return TweakCipher(keyring: environment) }
        throw CommandFailure.usage(
            "no keys for the tweak cipher: give --key-file FILE, set $\(Self.environmentVariable), or give the start-up script a tweak.cipher{key_file = ...}")
    }
}

extension TweakCipherError {
    /// The exit status of a command that fails with this error: 2 for bad input (a text that is not a
    /// sealed value, a key file that cannot be used), 1 when well-formed input cannot be opened.
    var exitStatus: Int32 {
        switch self {
        case .unknownKey, .authenticationFailed, .invalidPlaintext, .noKeys: return ExitStatus.failure
        case .malformed, .unsupportedVersion, .invalidKeyID, .invalidKeys, .keyFilePermissions, .keyFileIO: return ExitStatus.usage
        }
    }
}
