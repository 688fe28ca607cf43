/// What a property wrapper reaches through a key path from the current application (see
/// ``Application/current``): resolved as the wrapper is made, and used again while the current
/// application stays the same — a check of two atomic loads — otherwise resolved afresh on each use.
@usableFromInline
struct ResolvedFromCurrent<Target: Sendable>: Sendable {
    /// The generation of ``CurrentApplication/process`` when ``resolved`` was resolved; 0 when nothing was.
    @usableFromInline let resolvedAt: UInt64
    @usableFromInline let resolved: Target?
    @usableFromInline let resolve: @Sendable (Application) -> Target
    /// What the wrapper is, for the message when there is no current application (made only then).
    @usableFromInline let use: @Sendable () -> String

    init(use: @escaping @Sendable @autoclosure () -> String, _ resolve: @escaping @Sendable (Application) -> Target) {
        self.resolve = resolve
        self.use = use
        let generation = CurrentApplication.process.generation.load(ordering: .acquiring)
        if CurrentApplication.taskBindings.load(ordering: .relaxed) == 0, let application = CurrentApplication.application {
            resolvedAt = generation
            resolved = resolve(application)
        } else {
            resolvedAt = 0
            resolved = nil
        }
    }

    /// The target in the current application.
    @inlinable var target: Target {
        if let resolved, CurrentApplication.isCurrent(resolvedAt) { return resolved }
        return resolveNow()
    }

    @usableFromInline func resolveNow() -> Target {
        resolve(CurrentApplication.required(by: use()))
    }
}
