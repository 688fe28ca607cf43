import Foundation

/// Typed reads: the strict accessors and the forgiving ones with a default.
extension TweakManager {
    /// The value of the tweak as `T`, strictly typed (an `Int` is never read as a `Bool`; only `Double`
    /// accepts an integer, widened).
    ///
    /// - Throws: the errors of ``lookup(feature:variable:context:)``, or
    ///   ``TweakError/Code/typeMismatch``.
    ///
    /// Inlinable, so the conversion is specialised for `T` where it is called: a cached read then costs
    /// the cache's look-up and nothing generic.
    @inlinable
    public func value<T: TweakValueConvertible>(_ feature: String, _ variable: String, as type: T.Type = T.self) throws -> T {
        if let value = T(tweakValue: try resolvedValue(feature: feature, variable: variable)) { return value }
        throw typeMismatch(feature: feature, variable: variable, expected: T.tweakTypeName, context: .empty)
    }

    /// The value of the tweak as `T` for `context` (merged over the task's and the global one), strictly
    /// typed as `value(_:_:as:)` reads it. A separate function rather than a defaulted argument, so
    /// that the cached read without a context passes none.
    @inlinable
    public func value<T: TweakValueConvertible>(
        _ feature: String, _ variable: String, as type: T.Type = T.self, context: TweakContext
    ) throws -> T {
        if let value = T(tweakValue: try resolvedValue(feature: feature, variable: variable, context: context)) { return value }
        throw typeMismatch(feature: feature, variable: variable, expected: T.tweakTypeName, context: context)
    }

    /// The error of a typed read whose flag holds another type (or the error of looking it up again).
    @usableFromInline
    func typeMismatch(feature: String, variable: String, expected: String, context: TweakContext) -> any Error {
        do {
            let tweak = try lookup(feature: feature, variable: variable, context: context).tweak
            if tweak.isSealed {
                return TweakError.sealedTypeMismatch(
                    feature: feature, variable: variable, expected: expected, foundType: tweak.value.typeName, source: tweak.source)
            }
            return TweakError.typeMismatch(
                feature: feature, variable: variable, expected: expected, found: tweak.value, source: tweak.source)
        } catch {
            return error
        }
    }

    /// The value of the tweak as `T`, or `defaultValue` when it is missing, of another type, or cannot be
    /// read. Use `value(_:_:as:)` or ``lookup(feature:variable:context:)`` to find out why.
    public func value<T: TweakValueConvertible>(
        _ feature: String, _ variable: String, default defaultValue: T, context: TweakContext = .empty
    ) -> T {
        (try? value(feature, variable, as: T.self, context: context)) ?? defaultValue
    }

    /// Whether `feature` is on, by JustTweak's convention: the Boolean variable named like the feature
    /// (`"checkout": {"checkout": {"Value": true}}`), or else the variable `"enabled"`.
    ///
    /// - Throws: ``TweakError/Code/notFound`` for the `"enabled"` variable when neither
    ///   exists, ``TweakError/Code/typeMismatch`` when the flag is not a
    ///   Boolean, and lookup failures.
    public func enabled(_ feature: String, context: TweakContext = .empty) throws -> Bool {
        do {
            return try value(feature, feature, as: Bool.self, context: context)
        } catch let error as TweakError where error.code == .notFound {
            return try value(feature, "enabled", as: Bool.self, context: context)
        }
    }

    /// ``enabled(_:context:)``, false when the flag is missing, not a Boolean or cannot be read.
    public func isEnabled(_ feature: String, context: TweakContext = .empty) -> Bool {
        (try? enabled(feature, context: context)) ?? false
    }
}

/// Structured reads: a flag's array or object decoded into a Swift type.
extension TweakManager {
    /// The value of the tweak decoded as `T` through its `Decodable` conformance — for a structured flag
    /// such as `{"columns": 3, "style": "grid"}` read as a `Layout` struct. Scalar types (`Bool`, `Int`,
    /// `Double`, `String`, `JSONValue`) are read by the strict `value(_:_:as:)` instead.
    ///
    /// - Throws: the errors of ``lookup(feature:variable:context:)``, or
    ///   ``TweakError/Code/decodingFailed`` naming the field
    ///   that did not fit.
    @_disfavoredOverload
    public func value<T: Decodable>(_ feature: String, _ variable: String, as type: T.Type = T.self) throws -> T {
        let value = try resolvedValue(feature: feature, variable: variable)
        do {
            return try value.decode(as: T.self)
        } catch let error as DecodingError {
            let source = (try? lookup(feature: feature, variable: variable).tweak.source) ?? "its provider"
            throw TweakError.decodingFailed(
                feature: feature, variable: variable, type: String(describing: T.self), field: error.fieldPath,
                reason: error.reasonInWords, source: source)
        }
    }
}
