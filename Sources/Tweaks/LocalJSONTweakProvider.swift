public import Foundation
import Locking

/// A read-only provider over a tweak file in JustTweak's JSON format (see `TweakJSON`), usually the
/// lowest of the stack, holding the defaults.
///
/// The file is read when the provider is created; a malformed file is an error naming the file, line,
/// column and key — never a crash (JustTweak's `try!`).
public final class LocalJSONTweakProvider: TweakProvider {
    /// The provider's name (default: the file's name).
    public let name: String
    /// The file read.
    public let fileURL: URL
    private let tweaks: Locked<[TweakKey: Tweak]>
    private let ownDecryptor: Locked<TweakDecryptor?>
    private let changes = TweakChangeBroadcaster()

    /// Reads `fileURL`.
    ///
    /// - Throws: ``TweakError/Code/readFailed`` or ``TweakError/Code/invalidJSON``.
    public init(fileURL: URL, name: String? = nil, decryptor: TweakDecryptor? = nil) throws {
        let name = name ?? fileURL.lastPathComponent
        self.name = name
        self.fileURL = fileURL
        self.tweaks = Locked(Self.index(try TweakJSON.load(fileURL, source: name)))
        self.ownDecryptor = Locked(decryptor)
    }

    /// This provider's own decryptor, winning over the manager's; setting it reports a change.
    public var decryptor: TweakDecryptor? {
        get { ownDecryptor.withLock { $0 } }
        set {
            ownDecryptor.withLock { $0 = newValue }
            changes.send(TweakProviderChange(provider: name, keys: nil))
        }
    }

    /// Re-reads the file and reports a change; on error the previous tweaks stay.
    package func reload() throws {
        let fresh = Self.index(try TweakJSON.load(fileURL, source: name))
        tweaks.withLock { $0 = fresh }
        changes.send(TweakProviderChange(provider: name, keys: nil))
    }

    /// The tweak, or nil.
    public func tweak(feature: String, variable: String) throws -> Tweak? {
        tweaks.withLock { $0[TweakKey(feature: feature, variable: variable)] }
    }

    /// All tweaks of the file.
    public func allTweaks() throws -> [Tweak] {
        tweaks.withLock { Array($0.values) }
    }

    /// Reports reloads and decryptor changes.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        changes.observe(handler)
    }

    private static func index(_ tweaks: [Tweak]) -> [TweakKey: Tweak] {
        Dictionary(tweaks.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }
}
