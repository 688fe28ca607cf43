extension Application {
    /// A dependency declared AppState's way, in a computed property of an extension:
    ///
    /// ```swift
    /// extension Application {
    ///     var network: Dependency<any NetworkService> { dependency(LiveNetworkService(), id: "network") }
    /// }
    /// let network = Application.dependency(\.network)
    /// ```
    ///
    /// A handle to one entry of ``Application/dependencies``: its ``value`` is made on first use and then
    /// kept (per container for ``DependencyScope/container``), and overrides — scoped
    /// (``DependencyContainer/override(_:with:_:)-(String,_,_)``) or held (``Application/override(_:with:)``) — take
    /// its place while they are in force.
    public struct Dependency<Value: Sendable>: Sendable {
        /// The dependency's name in ``Application/dependencies`` (and to the Lua `dependency` module).
        public let id: String
        let container: DependencyContainer

        /// The dependency: an override in force, else the instance, made on first use.
        ///
        /// A dependency that cannot be made — its name registered since with another type, or a factory
        /// that needs itself — is a programming error and stops the program naming it; ``get()`` throws
        /// instead.
        public var value: Value {
            do {
                return try get()
            } catch {
                fatalError("\(error)")
            }
        }

        /// The dependency, or the error that kept it from being made.
        ///
        /// - Throws: ``AppStateError/Code/typeMismatch``,
        ///   ``AppStateError/Code/dependencyCycle``, ``AppStateError/Code/factoryFailed``,
        ///   ``AppStateError/Code/unknownDependency`` when it was unregistered.
        public func get() throws -> Value {
            try container.get(id, as: Value.self)
        }
    }

    /// The dependency `id`, made by `make` on first use, declared AppState's way: registered on the
    /// first use of the declaration, unless something is registered under `id` already (a script's
    /// `dependency.register`, an earlier declaration), which then stands.
    ///
    /// - Parameters:
    ///   - make: makes the instance, on first use.
    ///   - id: the dependency's name in ``Application/dependencies``, which a script's `dependency`
    ///     module uses too.
    ///   - scope: ``DependencyScope/application`` (one instance) or ``DependencyScope/container`` (one
    ///     per active container, made anew after a switch).
    public func dependency<Value: Sendable>(
        _ make: @autoclosure @escaping @Sendable () -> Value, id: String, scope: DependencyScope = .application
    ) -> Dependency<Value> {
        dependencies.registerIfAbsent(id, as: Value.self, scope: scope, factory: make)
        return Dependency(id: id, container: dependencies)
    }
}
