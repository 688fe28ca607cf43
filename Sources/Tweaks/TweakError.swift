public import Foundation

/// What went wrong with a tweak, naming the feature, variable, provider, file, line or URL involved.
///
/// Tell failures apart by their ``code``, compared with the static members of
/// ``Code`` (`error.code == .notFound`); a release may add codes, so a `switch` over them needs
/// a `default`. ``feature``, ``variable``, ``file``, ``line``, ``column`` and ``underlyingError`` give the
/// details a code has.
public struct TweakError: Error, CustomStringConvertible, LocalizedError {
    /// The failure with its details. `package`: the engines and front-ends of this package match on it; an
    /// app uses ``code``, ``message`` and the public details.
    package let reason: Reason

    /// The error for `reason`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// "an int", "an object", "a string".
    package static func withArticle(_ typeName: String) -> String {
        (typeName.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + typeName
    }

    /// What kind of failure it is.
    public var code: Code {
        switch reason {
        case .notFound: .notFound
        case .typeMismatch: .typeMismatch
        case .sealedTypeMismatch: .sealedTypeMismatch
        case .decodingFailed: .decodingFailed
        case .typeRefused: .typeRefused
        case .decryptorMissing: .decryptorMissing
        case .decryptionFailed: .decryptionFailed
        case .providerFailed: .providerFailed
        case .invalidJSON: .invalidJSON
        case .readFailed: .readFailed
        case .noMutableProvider: .noMutableProvider
        case .unknownProvider: .unknownProvider
        case .providerNotMutable: .providerNotMutable
        case .httpStatus: .httpStatus
        case .timedOut: .timedOut
        case .networkFailed: .networkFailed
        case .remoteNotLoaded: .remoteNotLoaded
        case .remoteClosed: .remoteClosed
        case .invalidContext: .invalidContext
        case .defaulted: .defaulted
        }
    }

    /// The feature of the tweak the failure is about; nil when it is not about one tweak.
    public var feature: String? { tweak?.feature }

    /// The variable of the tweak the failure is about; nil when it is not about one tweak.
    public var variable: String? { tweak?.variable }

    /// The feature and variable of the tweak the failure is about, if it is about one.
    private var tweak: (feature: String, variable: String)? {
        switch reason {
        case .notFound(let feature, let variable, _), .typeMismatch(let feature, let variable, _, _, _),
             .sealedTypeMismatch(let feature, let variable, _, _, _), .decodingFailed(let feature, let variable, _, _, _, _),
             .typeRefused(let feature, let variable, _, _, _), .decryptorMissing(let feature, let variable, _),
             .decryptionFailed(let feature, let variable, _, _):
            (feature, variable)
        case .providerFailed(_, let feature?, let variable?, _):
            (feature, variable)
        case .defaulted(let answer, _):
            (answer.feature, answer.variable)
        default: nil
        }
    }

    /// The tweak file (a path or URL) that is malformed or could not be read; nil for the other codes.
    public var file: String? {
        switch reason {
        case .invalidJSON(let file, _, _, _, _), .readFailed(let file, _): file
        default: nil
        }
    }

    /// The line of ``file`` where a malformed document goes wrong, counting from 1; nil for the other codes.
    public var line: Int? {
        if case .invalidJSON(_, let line, _, _, _) = reason { line } else { nil }
    }

    /// The column of ``line`` where a malformed document goes wrong, counting from 1; nil for the other
    /// codes.
    public var column: Int? {
        if case .invalidJSON(_, _, let column, _, _) = reason { column } else { nil }
    }

    /// Every provider of the stack and why it did not answer, for ``Code/notFound``; empty for the
    /// other codes.
    public var misses: [TweakProviderMiss] {
        if case .notFound(_, _, let misses) = reason { misses } else { [] }
    }

    /// Why the flag's provider left the value to the caller's default: the reason, error code and
    /// metadata of a ``Code/defaulted`` failure; nil for the other codes.
    public var defaultAnswer: TweakDefaultAnswer? {
        if case .defaulted(let answer, _) = reason { answer } else { nil }
    }

    /// The error that caused this one: the decryptor's or the failed provider's. Nil for the other codes.
    public var underlyingError: (any Error)? {
        switch reason {
        case .decryptionFailed(_, _, _, let underlying), .providerFailed(_, _, _, let underlying): underlying
        default: nil
        }
    }

    /// A message that says what failed and what to do.
    public var message: String {
        switch reason {
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
            return "\(url) answered HTTP \(status); keeping the last good copy"
        case .timedOut(let url, let seconds):
            return "\(url) timed out after \(seconds) s; keeping the last good copy"
        case .networkFailed(let url, let reason):
            return "\(url) failed: \(reason); keeping the last good copy"
        case .remoteNotLoaded(let url):
            return "remote tweaks from \(url) are not loaded yet and there is no kept copy; refresh the provider"
        case .remoteClosed(let url):
            return "the remote provider of \(url) is closed and fetches no more; make a new one"
        case .defaulted(let answer, let source):
            let why = answer.errorMessage.map { ": \($0)" } ?? ""
            return "tweak '\(answer.feature).\(answer.variable)' from \(source) gives no value (\(answer.errorCode?.rawValue ?? answer.reason.rawValue))\(why); the caller's default applies"
        case .invalidContext(let problem):
            return "the evaluation context is not valid: \(problem); give a JSON object such as {\"targetingKey\": \"user-1\", \"country\": \"DE\"}"
        }
    }

    /// Same as ``message``.
    public var description: String { message }

    /// Same as ``message``, for `localizedDescription`.
    public var errorDescription: String? { message }
}
