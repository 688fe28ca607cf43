extension DependencyContainer {
    /// Makes `name` resolve to `value` — for every caller, on every thread — while `body` runs, then undoes
    /// it, also when `body` throws.
    ///
    /// Overrides nest: an inner override of the same name wins while it runs, and the outer one is in force
    /// again after it. Overlapping overrides from different threads each remove exactly their own.
    ///
    /// - Throws: ``AppStateError/unknownDependency(_:)`` or ``AppStateError/typeMismatch(key:declared:requested:)``
    ///   before `body` runs; then whatever `body` throws.
    public func override<Result>(_ name: String, with value: any Sendable, _ body: () throws -> Result) throws -> Result {
        let id = try pushOverride(name, value)
        defer { popOverride(name, id) }
        return try body()
    }

    /// Makes `name` resolve to `value` while the asynchronous `body` runs; see ``override(_:with:_:)``.
    public func override<Result>(
        _ name: String, with value: any Sendable, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let id = try pushOverride(name, value)
        defer { popOverride(name, id) }
        return try await body()
    }

    /// Makes the dependencies named in `overrides` resolve to the given values for the current task and
    /// the tasks it creates while `body` runs — other tasks are not affected, so tests running in
    /// parallel may override the same dependency differently.
    ///
    /// Task overrides win over closure overrides; nested calls add to (and for the same names, replace)
    /// the outer ones until they return.
    ///
    /// - Throws: ``AppStateError/unknownDependency(_:)`` or ``AppStateError/typeMismatch(key:declared:requested:)``
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

    private func pushOverride(_ name: String, _ value: any Sendable) throws -> UInt64 {
        try checkOverride(name, value)
        let id = overrideIDs.wrappingAdd(1, ordering: .relaxed).newValue
        closureOverrides.withLock { $0[name, default: []].append((id, value)) }
        return id
    }

    private func popOverride(_ name: String, _ id: UInt64) {
        closureOverrides.withLock { overrides in
            overrides[name]?.removeAll { $0.id == id }
            if overrides[name]?.isEmpty == true { overrides[name] = nil }
        }
    }
}
