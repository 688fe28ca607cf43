extension DependencyContainer {
    /// Registers `factory` under `key`; see ``register(_:as:scope:factory:)``.
    public func register<Value: Sendable>(
        _ key: DependencyKey<Value>, scope: DependencyScope = .application,
        factory: @escaping @Sendable () throws -> Value
    ) {
        register(key.name, as: Value.self, scope: scope, factory: factory)
    }

    /// The dependency of `key`; see ``get(_:)``.
    public func get<Value>(_ key: DependencyKey<Value>) throws -> Value {
        try get(key.name, as: Value.self)
    }

    /// Overrides the dependency of `key` while `body` runs; see ``override(_:with:_:)-(String,_,_)``.
    public func override<Value, Result>(
        _ key: DependencyKey<Value>, with value: Value, _ body: () throws -> Result
    ) throws -> Result {
        try override(key.name, with: value, body)
    }

    /// Overrides the dependency of `key` while the asynchronous `body` runs; see ``override(_:with:_:)-(String,_,_)``.
    public func override<Value, Result>(
        _ key: DependencyKey<Value>, with value: Value, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try await override(key.name, with: value, isolation: isolation, body)
    }
}
