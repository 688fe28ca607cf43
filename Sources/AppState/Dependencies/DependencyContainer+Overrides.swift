extension DependencyContainer {
    /// Makes `name` resolve to `value` while `body` runs — for the current task (or thread, in
    /// synchronous code) and the tasks it creates, never for other threads — then undoes it, also when
    /// `body` throws. Two tests running in parallel may override the same dependency differently.
    ///
    /// Overrides nest: an inner override of the same name wins while it runs, and the outer one is in
    /// force again after it. The same as ``withOverrides(_:_:)`` with one name.
    ///
    /// - Throws: ``AppStateError/Code/unknownDependency`` or ``AppStateError/Code/typeMismatch``
    ///   before `body` runs; then whatever `body` throws.
    public func override<Result>(_ name: String, with value: any Sendable, _ body: () throws -> Result) throws -> Result {
        try withOverrides([name: value], body)
    }

    /// Makes `name` resolve to `value` while the asynchronous `body` runs; see ``override(_:with:_:)-(String,_,_)``.
    public func override<Result>(
        _ name: String, with value: any Sendable, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try await withOverrides([name: value], isolation: isolation, body)
    }

    /// Makes the dependencies named in `overrides` resolve to the given values for the current task and
    /// the tasks it creates while `body` runs — other tasks are not affected, so tests running in
    /// parallel may override the same dependency differently.
    ///
    /// Nested calls add to (and for the same names, replace) the outer ones until they return.
    ///
    /// - Throws: ``AppStateError/Code/unknownDependency`` or ``AppStateError/Code/typeMismatch``
    ///   before `body` runs; then whatever `body` throws.
    public func withOverrides<Result>(_ overrides: [String: any Sendable], _ body: () throws -> Result) throws -> Result {
        try DependencyTaskOverrides.$current.withValue(taskOverrides(adding: overrides)) { try body() }
    }

    /// The asynchronous form of ``withOverrides(_:_:)``.
    public func withOverrides<Result>(
        _ overrides: [String: any Sendable], isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try await DependencyTaskOverrides.$current.withValue(taskOverrides(adding: overrides), operation: body)
    }

    /// The current task's overrides with `overrides` added for this container, after checking them.
    private func taskOverrides(adding overrides: [String: any Sendable]) throws -> [UInt64: [String: any Sendable]] {
        for (name, value) in overrides { try checkOverride(name, value) }
        var all = DependencyTaskOverrides.current
        all[identity, default: [:]].merge(overrides) { _, inner in inner }
        return all
    }
}
