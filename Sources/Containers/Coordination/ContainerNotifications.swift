public import Foundation

extension AppContainer {
    /// Posted on `NotificationCenter.default` once the will-change delegates and hooks accepted a
    /// switch, just before anything moves. The object is the ``AppContainer``; the user info holds the
    /// containers under ``toContainerUserInfoKey`` and ``fromContainerUserInfoKey``.
    public static let containerWillChangeNotification = Notification.Name("EnvScript.AppContainer.containerWillChange")

    /// Posted on `NotificationCenter.default` after a switch, once the did-change delegates and hooks
    /// ran. The object and user info are as for ``containerWillChangeNotification``.
    public static let containerDidChangeNotification = Notification.Name("EnvScript.AppContainer.containerDidChange")

    /// The user-info key of the ``Container`` being switched to.
    public static let toContainerUserInfoKey = "to"
    /// The user-info key of the ``Container`` being switched from.
    public static let fromContainerUserInfoKey = "from"
    /// The user-info key, on ``containerDidChangeNotification`` only, of the entries that were in the
    /// way of the switch and were set aside: a non-empty `[KeptNewcomer]`, absent when there were none.
    public static let keptNewcomersUserInfoKey = "keptNewcomers"
}
