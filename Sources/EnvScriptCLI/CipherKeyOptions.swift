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

    /// The keys of `$ENVSCRIPT_TWEAK_KEYS` and then of `keyFile` (whose last key seals), or nil when
    /// neither gives any; a key file that cannot be used ends the command (``TweakCipherError/Code/exitStatus``).
    static func keyring(keyFile: String?) throws -> TweakCipherKeyring? {
        let environment = try environmentKeys()
        guard let keyFile else { return environment }
        do {
            let fromFile = try TweakCipherKeyring.load(file: URL(fileURLWithPath: keyFile))
            return try (environment ?? TweakCipherKeyring([])).merged(with: fromFile, origin: keyFile)
        } catch let error as TweakCipherError {
            throw CommandFailure(message: "--key-file: \(error)", status: error.exitStatus)
        }
    }

    /// The cipher to use: from `--key-file`, else from the start-up scripts of `runtime` (when a host is
    /// opened for them), else from the environment.
    func cipher(runtime: RuntimeOptions) throws -> TweakCipher {
        if keyFile != nil, let ring = try Self.keyring(keyFile: keyFile) { return TweakCipher(keyring: ring) }
        var fromScripts: TweakCipher?
        try runtime.withHost(readsOnly: true) { host in fromScripts = host.tweaks.cipher }
        if let fromScripts { return fromScripts }
        if let environment = try Self.environmentKeys() { return TweakCipher(keyring: environment) }
        throw CommandFailure.usage(
            "no keys for the tweak cipher: give --key-file FILE, set $\(Self.environmentVariable), or give the start-up script a tweak.cipher{key_file = ...}")
    }
}

extension TweakCipherError {
    /// The exit status of a command that fails with this error: 2 for bad input (a text that is not a
    /// sealed value, a key file that cannot be read or parsed, no keys at all), 1 when a well-formed value
    /// cannot be opened or a key file is refused for its permissions.
    var exitStatus: Int32 {
        switch reason {
        case .unknownKey, .authenticationFailed, .invalidPlaintext, .keyFilePermissions: return ExitStatus.failure
        case .malformed, .unsupportedVersion, .invalidKeyID, .invalidKeys, .keyFileIO, .noKeys: return ExitStatus.usage
        }
    }
}
