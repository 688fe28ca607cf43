public import Foundation

/// A change heard by ``TweakManager`` observers: which provider changed what, and the tweak in effect now.
public struct TweakChange: Sendable {
    /// The provider that changed, or nil when the stack itself was replaced.
    public let provider: String?
    /// The tweak that changed, or nil when anything may have changed (a reload, a refresh, a new stack).
    public let key: TweakKey?
    /// The tweak now in effect for ``key`` as the whole stack resolves it (decrypted); nil when ``key`` is
    /// nil or no provider has it any more.
    public let tweak: Tweak?

    /// Creates a change record.
    package init(provider: String?, key: TweakKey?, tweak: Tweak?) {
        self.provider = provider
        self.key = key
        self.tweak = tweak
    }
}

extension Notification.Name {
    /// Posted by a ``TweakManager`` (the notification's object) after each change; the ``TweakChange`` is in
    /// the user info under ``TweakManager/changeUserInfoKey`` and the tweak, when there is one, under
    /// ``TweakManager/tweakUserInfoKey``.
    public static let tweakDidChange = Notification.Name("EnvScript.TweakDidChange")
}
