/// Where a host's keys for the tweak cipher come from, read only when a script asks for the cipher, so a
/// program that never uses it never fails on a badly set variable.
public struct TweakKeySource: Sendable {
    private let load: @Sendable () throws -> TweakCipherKeyring?

    /// Keys the host holds already (from a keychain, a secret store...).
    public static func keys(_ keyring: TweakCipherKeyring) -> TweakKeySource {
        TweakKeySource { keyring }
    }

    /// The keys in the environment variable `name` (see ``TweakCipherKeyring/environment(_:)``); none
    /// when it is unset or empty.
    public static func environment(_ name: String) -> TweakKeySource {
        TweakKeySource { try TweakCipherKeyring.environment(name) }
    }

    /// The keys, or nil when the source has none.
    ///
    /// - Throws: ``TweakCipherError/Code/invalidKeys`` for a malformed list.
    public func keyring() throws -> TweakCipherKeyring? {
        try load()
    }
}
