public import Foundation
import Locking

/// A read-only provider over a flagd flag-definition file (https://flagd.dev/reference/flag-definitions/):
/// flags with variants, a default variant, targeting rules in JsonLogic with flagd's operators
/// (`fractional`, `sem_ver`, `starts_with`, `ends_with`), shared rules under `$evaluators`, and metadata.
/// Evaluated in Swift, in the evaluation context of each lookup
/// (``TweakManager/resolve(_:_:default:context:)``), with flagd's variants and reasons.
///
/// A flag's key names its tweak as ``TweakKey/init(flagKey:)`` reads it: `checkout.new-flow` is feature
/// `checkout`, variable `new-flow`; `dark-mode` is feature and variable `dark-mode`. Rules are compiled
/// once, when the file is read; the file is read again when it changes on disk (checked every
/// `watchInterval`, never per lookup) or on `reload()`, and each reload is reported to the manager.
public final class FlagdTweakProvider: TweakProvider {
    /// What loading does with a targeting rule that has a mistake it can see: an operator JsonLogic and
    /// flagd do not have, an operator given a number of arguments it never takes, an object of several
    /// keys where an operation belongs, a rule too large once its `$ref`s are written out.
    public enum InvalidRules: Sendable, Hashable {
        /// The file is refused (``TweakError/Code/invalidJSON`` naming the line and the flag): for those
        /// who want a start-up to fail on such a file.
        case refuseFile
        /// The file loads, as flagd loads it (the default): a flag whose rule cannot be evaluated (an
        /// unknown operator), or that is wrong itself (no variants, a state or default variant that is
        /// not one, a variant or metadata no JSON value of flagd's can be),
        /// answers the caller's default with error `PARSE_ERROR`, and is named in ``loadWarnings``; the
        /// other mistakes of rules evaluate as JsonLogic has them (a missing argument is null). A file
        /// that is not JSON, or not a flag set, is still refused.
        case failEvaluation
    }

    /// The provider's name (default: the file's name).
    public let name: String
    /// The file read.
    public let fileURL: URL
    /// What loading does with a rule it can see is wrong.
    package let invalidRules: InvalidRules
    /// Checks the file before each read and answers the file to read (see the initialiser).
    private let readCheck: (@Sendable (URL) throws -> URL)?
    private let flagSet: Locked<FlagdFlagSet>
    private let changes = TweakChangeBroadcaster()
    private let poller: Locked<FileChangePoller?> = Locked(nil)

    /// Reads `fileURL` and, unless `watchInterval` is nil, reads it again whenever it changes (a file
    /// that cannot be read then keeps the flags read before).
    ///
    /// A `$ref` to an evaluator the file does not have is never refused: that flag answers the caller's
    /// default with error `PARSE_ERROR`, as flagd answers it.
    ///
    /// `readCheck`, when given, runs before every read, the first and each one after a change, and
    /// answers the file to read (a host passes its permission check, which resolves links): a file
    /// replaced meanwhile by a link to a file the check refuses is refused as the first read would
    /// have been, and the flags read before stay. A file larger than `TweakJSON.maximumFileSize` is
    /// refused.
    ///
    /// - Throws: ``TweakError/Code/readFailed`` or ``TweakError/Code/invalidJSON`` (with the line, column
    ///   and flag key of the problem), or what `readCheck` throws.
    public init(
        fileURL: URL, name: String? = nil, invalidRules: InvalidRules = .failEvaluation, watchInterval: Duration? = .seconds(1),
        readCheck: (@Sendable (URL) throws -> URL)? = nil
    ) throws {
        self.name = name ?? fileURL.lastPathComponent
        self.fileURL = fileURL
        self.invalidRules = invalidRules
        self.readCheck = readCheck
        self.flagSet = Locked(try Self.load(fileURL, invalidRules: invalidRules, source: self.name, readCheck: readCheck))
        if let watchInterval {
            let poller = FileChangePoller(path: fileURL.path, interval: watchInterval) { [weak self] in
                try? self?.reload()
            }
            self.poller.withLock { $0 = poller }
        }
    }

    deinit {
        poller.withLock { $0?.stop() }
    }

    /// Reads the file again and reports a change; on error the flags read before stay.
    ///
    /// - Throws: ``TweakError/Code/readFailed`` or ``TweakError/Code/invalidJSON``.
    package func reload() throws {
        let fresh = try Self.load(fileURL, invalidRules: invalidRules, source: name, readCheck: readCheck)
        flagSet.withLock { $0 = fresh }
        changes.send(TweakProviderChange(provider: name, keys: nil))
    }

    /// The flag evaluated in `context`, or nil when the file has no flag of that key.
    public func evaluate(feature: String, variable: String, context: TweakContext) throws -> TweakAnswer? {
        let key = TweakKey(feature: feature, variable: variable)
        guard let flag = flagSet.withLock({ $0.flags[key] }) else { return nil }
        return flag.evaluate(in: context)
    }

    /// The flag evaluated in the empty context, or nil when the file has no flag of that key.
    ///
    /// - Throws: ``TweakError/Code/defaulted`` when the flag gives no value (disabled, no default
    ///   variant, targeting that cannot be evaluated).
    public func tweak(feature: String, variable: String) throws -> Tweak? {
        switch try evaluate(feature: feature, variable: variable, context: .empty) {
        case nil: return nil
        case .value(let tweak)?: return tweak
        case .callerDefault(let answer)?: throw TweakError.defaulted(answer, source: name)
        }
    }

    /// Each flag's default variant, with reason `STATIC` (a flag without targeting), `DEFAULT` (a flag
    /// with targeting, whose value may differ by context) or `DISABLED` (a disabled flag, whose lookups
    /// give the caller's default); flags without a default variant are left out.
    public func allTweaks() throws -> [Tweak] {
        let flags = flagSet.withLock { Array($0.flags.values) }
        return flags.compactMap { flag in
            guard let variant = flag.defaultVariant, let value = flag.variants[variant] else { return nil }
            let reason: TweakReason = !flag.isEnabled ? .disabled : flag.hasTargeting ? .default : .static
            return flag.tweak(variant: variant, value: value, reason: reason)
        }
    }

    /// The flag set's `metadata` in the last file read (`flagSetId`, `version`...): OFREP's bulk answer
    /// carries it, as flagd's does.
    package var flagSetMetadata: [String: JSONValue] {
        flagSet.withLock { $0.metadata }
    }

    /// The rules of the last file read that cannot be evaluated (their flags answer PARSE_ERROR), each as
    /// `file:line: flag 'key': problem`: what a host warns about as it loads the file.
    public var loadWarnings: [String] {
        flagSet.withLock { $0.warnings }
    }

    /// The key of every flag of the file, those without a default variant included.
    public func allKeys() throws -> [TweakKey] {
        flagSet.withLock { Array($0.flags.keys) }
    }

    /// Reports reloads.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        changes.observe(handler)
    }

    private static func load(
        _ url: URL, invalidRules: InvalidRules, source: String, readCheck: (@Sendable (URL) throws -> URL)?
    ) throws -> FlagdFlagSet {
        let checked = try readCheck?(url) ?? url
        let data = try TweakJSON.contents(of: checked, named: url.path)
        return try FlagdDocumentReader(file: url.path, invalidRules: invalidRules, source: source).read(data)
    }
}
