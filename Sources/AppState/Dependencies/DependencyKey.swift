/// A typed name for a dependency, so registering, getting and overriding it need no casts:
///
/// ```swift
/// extension DependencyKey where Value == any MessageSender {
///     static let sender = DependencyKey("sender")
/// }
/// dependencies.register(.sender) { MailSender() }
/// let sender = try dependencies.get(.sender)
/// ```
public struct DependencyKey<Value: Sendable>: Sendable, Hashable {
    /// The dependency's name in its ``DependencyContainer``.
    public let name: String

    /// A key for the dependency registered under `name`.
    package init(_ name: String) {
        self.name = name
    }
}
