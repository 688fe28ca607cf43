import Foundation

/// What went wrong with a tweak, naming the feature, variable, provider, file, line or URL involved.
public enum TweakError: Error, CustomStringConvertible, LocalizedError {
    /// No provider has the tweak. `misses` lists every provider in priority order and why it did not
    /// answer, so a provider that failed (rather than lacked it) is visible.
    case notFound(feature: String, variable: String, misses: [TweakProviderMiss])
    /// The tweak exists but holds another type than the one asked for.
    case typeMismatch(feature: String, variable: String, expected: String, found: TweakValue, source: String)
    /// The tweak is a secret (sealed by its provider) and holds another type than the one asked for; the
    /// value is left out, so the message never shows it.
    case sealedTypeMismatch(feature: String, variable: String, expected: String, foundType: String, source: String)
    /// The tweak's structured value does not decode as the Swift type asked for; `field` is the coding
    /// path of the part that did not fit (empty for the whole value).
    case decodingFailed(feature: String, variable: String, type: String, field: String, reason: String, source: String)
    /// A write would change the tweak's type: another provider of the stack (`definedBy`) defines it as
    /// `expected`, and `given` is of another type.
    case typeRefused(feature: String, variable: String, expected: String, given: TweakValue, definedBy: String)
    /// The tweak is marked `"Encrypted": true` but nothing can open it: it is not in the sealed format of a
    /// cipher the manager has, and neither its provider nor the manager has a decryptor.
    case decryptorMissing(feature: String, variable: String, source: String)
    /// The decryptor threw while decrypting the tweak.
    case decryptionFailed(feature: String, variable: String, source: String, underlying: any Error)
    /// A provider failed; `feature` and `variable` are nil when the failure was not about one tweak.
    case providerFailed(provider: String, feature: String?, variable: String?, underlying: any Error)
    /// A tweak JSON document is malformed or not in JustTweak's shape. `file` is a path or URL, `line` and
    /// `column` count from 1, `key` is the dotted path of the offending key when there is one.
    case invalidJSON(file: String, line: Int, column: Int, key: String?, reason: String)
    /// A tweak file could not be read.
    case readFailed(file: String, reason: String)
    /// A write was asked for but no provider in the stack is mutable.
    case noMutableProvider(available: [String])
    /// No provider in the stack has this name.
    case unknownProvider(name: String, available: [String])
    /// The named provider cannot be written to.
    case providerNotMutable(name: String)
    /// The server answered with a status other than 200 or 304.
    case httpStatus(url: String, status: Int)
    /// The request did not complete within the timeout.
    case timedOut(url: String, seconds: Double)
    /// The request failed below HTTP (connection refused, DNS, TLS...).
    case networkFailed(url: String, reason: String)
    /// A remote provider has neither fetched its tweaks nor a kept copy to start from.
    case remoteNotLoaded(url: String)
    /// A remote provider was closed (its runtime closed); it fetches no more.
    case remoteClosed(url: String)

    /// "an int", "an object", "a string".
    public static func withArticle(_ typeName: String) -> String {
        (typeName.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + typeName
    }

    /// A message that says what failed and what to do.
    public var description: String {
        switch self {
        case .notFound(let feature, let variable, let misses):
            let failures = misses.compactMap { miss -> String? in
                guard case .failed(let error) = miss.reason else { return nil }
                return "\(miss.provider) failed: \(error)"
            }
            let searched = misses.map(\.provider).joined(separator: ", ")
            var text = "tweak '\(feature).\(variable)' not found in any provider (searched: \(searched.isEmpty ? "no providers" : searched))"
            if !failures.isEmpty { text += "; " + failures.joined(separator: "; ") }
            return text
        case .typeMismatch(let feature, let variable, let expected, let found, let source):
            return "tweak '\(feature).\(variable)' from \(source) is a \(found.typeName) (\(found)), expected \(expected)"
        case .sealedTypeMismatch(let feature, let variable, let expected, let foundType, let source):
            return "tweak '\(feature).\(variable)' from \(source) is a sealed \(foundType), expected \(expected)"
        case .decodingFailed(let feature, let variable, let type, let field, let reason, let source):
            let place = field.isEmpty ? "" : " at '\(field)'"
            return "tweak '\(feature).\(variable)' from \(source) cannot be read as \(type)\(place): \(reason)"
        case .typeRefused(let feature, let variable, let expected, let given, let definedBy):
            return "tweak '\(feature).\(variable)' is \(Self.withArticle(expected)) (as \(definedBy) defines it), not \(Self.withArticle(given.typeName)) (\(given)); give a value of that type"
        case .decryptorMissing(let feature, let variable, let source):
            return "tweak '\(feature).\(variable)' from \(source) is encrypted but nothing can open it; give the stack a cipher (for values sealed by envscript tweak seal) or a decryptor"
        case .decryptionFailed(let feature, let variable, let source, let underlying):
            return "decrypting tweak '\(feature).\(variable)' from \(source) failed: \(underlying)"
        case .providerFailed(let provider, let feature, let variable, let underlying):
            if let feature, let variable {
                return "provider '\(provider)' failed on '\(feature).\(variable)': \(underlying)"
            }
            return "provider '\(provider)' failed: \(underlying)"
        case .invalidJSON(let file, let line, let column, let key, let reason):
            let at = key.map { " (key '\($0)')" } ?? ""
            return "\(file):\(line):\(column): \(reason)\(at)"
        case .readFailed(let file, let reason):
            return "cannot read tweak file '\(file)': \(reason)"
        case .noMutableProvider(let available):
            return "no mutable provider in the stack (\(available.joined(separator: ", "))); add an overrides or ephemeral provider"
        case .unknownProvider(let name, let available):
            return "no provider named '\(name)' in the stack; available: \(available.joined(separator: ", "))"
        case .providerNotMutable(let name):
            return "provider '\(name)' is read-only; write to an overrides or ephemeral provider"
        case .httpStatus(let url, let status):
            return "GET \(url) answered HTTP \(status); keeping the last good copy"
        case .timedOut(let url, let seconds):
            return "GET \(url) timed out after \(seconds) s; keeping the last good copy"
        case .networkFailed(let url, let reason):
            return "GET \(url) failed: \(reason); keeping the last good copy"
        case .remoteNotLoaded(let url):
            return "remote tweaks from \(url) are not loaded yet and there is no kept copy; refresh the provider"
        case .remoteClosed(let url):
            return "the remote provider of \(url) is closed and fetches no more; make a new one"
        }
    }

    /// Same as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}
