/// The non-throwing reads with OpenFeature's resolution details.
extension TweakManager {
    /// The flag's value as `T` with how it was chosen (variant, reason, metadata, source), or
    /// `defaultValue` with the error code that says why — never an error, as OpenFeature's evaluation
    /// API has it.
    ///
    /// `context` is merged over the task's ``TweakContext/current`` and the manager's global
    /// ``context``.
    public func resolve<T: TweakValueConvertible>(
        _ feature: String, _ variable: String, default defaultValue: T, context: TweakContext = .empty
    ) -> TweakResolution<T> {
        let lookup: TweakLookup
        do {
            lookup = try self.lookup(feature: feature, variable: variable, context: context)
        } catch {
            return Self.resolution(defaultValue, failure: error)
        }
        let tweak = lookup.tweak
        guard let value = T(tweakValue: tweak.value) else {
            let found = tweak.isSealed ? "a sealed \(tweak.value.typeName)" : TweakError.withArticle(tweak.value.typeName)
            return TweakResolution(
                value: defaultValue, variant: tweak.variant, reason: .error, errorCode: .typeMismatch,
                errorMessage: "tweak '\(feature).\(variable)' from \(tweak.source) is \(found), expected \(T.tweakTypeName)",
                metadata: tweak.metadata, source: tweak.source)
        }
        return TweakResolution(
            value: value, variant: tweak.variant, reason: tweak.reason, metadata: tweak.metadata, source: tweak.source)
    }

    /// The resolution of a lookup that failed with `failure`: `defaultValue`, and the code OpenFeature
    /// gives such a failure.
    package static func resolution<T>(_ defaultValue: T, failure: any Error) -> TweakResolution<T> {
        guard let error = failure as? TweakError else {
            return TweakResolution(value: defaultValue, reason: .error, errorCode: .general, errorMessage: "\(failure)")
        }
        if let answer = error.defaultAnswer, case .defaulted(_, let source) = error.reason {
            // With an error code the reason is ERROR, except for a stale copy (STALE, PROVIDER_NOT_READY
            // for a copy evaluated for another context): the provider's reason says more there.
            let reason = answer.errorCode == nil || answer.reason == .stale ? answer.reason : .error
            return TweakResolution(
                value: defaultValue, reason: reason, errorCode: answer.errorCode,
                errorMessage: answer.errorMessage, metadata: answer.metadata, source: source)
        }
        let code: TweakErrorCode
        switch error.code {
        case .notFound:
            // Not found because the one provider that has such flags could not read its file: a parse error.
            let unreadable = error.misses.contains { ($0.error as? TweakError)?.code == .invalidJSON }
            code = unreadable ? .parseError : .flagNotFound
        case .typeMismatch, .sealedTypeMismatch, .decodingFailed: code = .typeMismatch
        case .invalidJSON: code = .parseError
        case .invalidContext: code = .invalidContext
        case .remoteNotLoaded: code = .providerNotReady
        default: code = .general
        }
        return TweakResolution(value: defaultValue, reason: .error, errorCode: code, errorMessage: error.message)
    }
}
