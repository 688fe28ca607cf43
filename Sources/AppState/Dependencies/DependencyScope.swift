/// How long a dependency's instance lives.
public enum DependencyScope: String, Sendable, Hashable {
    /// One instance for the life of the ``DependencyContainer``.
    case application
    /// One instance per active container: dropped by ``DependencyContainer/containerDidSwitch()`` and
    /// built anew, for the new container, on next use.
    case container
}
