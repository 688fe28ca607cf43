/// What a property wrapper reaches through a key path from the current application (see
/// ``Application/current``): resolved as the wrapper is made, and used again while the current
/// application stays the same — a check of two atomic loads — otherwise resolved afresh on each use.
///
/// Wrappers reach the target through ``withTarget(_:)``, which lends the kept target to its body. The
/// shape is chosen for the optimizer: the kept target is a non-optional constant of an object, reached
/// by switching over this one-word value, so it is lent without reference counting and a wrapper's
/// access costs no retain and release over a held handle's. (Kept in an optional stored property, it
/// was copied around every call the optimizer could not see into: a write through a wrapper cost twice
/// a held handle's.)
@usableFromInline
enum ResolvedFromCurrent<Target: Sendable>: Sendable {
    /// Resolved as the wrapper was made.
    case kept(KeptTarget<Target>)
    /// There was no current application (or a task binding was in force) as the wrapper was made.
    case unresolved(TargetResolver<Target>)

    init(use: @escaping @Sendable @autoclosure () -> String, _ resolve: @escaping @Sendable (Application) -> Target) {
        let resolver = TargetResolver(resolve: resolve, use: use)
        let stack = CurrentApplication.process
        let generation = stack.generation.load(ordering: .acquiring)
        if stack.taskBindings.load(ordering: .relaxed) == 0, let application = CurrentApplication.application {
            self = .kept(KeptTarget(resolve(application), resolvedAt: generation, in: stack, resolver: resolver))
        } else {
            self = .unresolved(resolver)
        }
    }

    /// Calls `body` with the target in the current application.
    @inlinable
    func withTarget<Result>(_ body: (borrowing Target) -> Result) -> Result {
        switch self {
        case .kept(let kept):
            if kept.stack.isUnchanged(since: kept.resolvedAt) { return body(kept.target) }
            return kept.resolver.withTargetResolvedNow(body)
        case .unresolved(let resolver):
            return resolver.withTargetResolvedNow(body)
        }
    }

    /// The target in the current application, copied out (for projected values and the slow paths).
    @inlinable var target: Target {
        withTarget { copy $0 }
    }
}

/// How a property wrapper resolves its target in the application current now.
@usableFromInline
final class TargetResolver<Target: Sendable>: Sendable {
    let resolve: @Sendable (Application) -> Target
    /// What the wrapper is, for the message when there is no current application (made only then).
    let use: @Sendable () -> String

    init(resolve: @escaping @Sendable (Application) -> Target, use: @escaping @Sendable () -> String) {
        self.resolve = resolve
        self.use = use
    }

    /// Calls `body` with the target resolved in the current application now: the slow path of
    /// ``ResolvedFromCurrent/withTarget(_:)``, kept out of line.
    @inline(never) @usableFromInline
    func withTargetResolvedNow<Result>(_ body: (borrowing Target) -> Result) -> Result {
        body(resolve(CurrentApplication.required(by: use())))
    }
}

/// A target a property wrapper resolved, with the generation of the process's current application it
/// belongs to.
@usableFromInline
final class KeptTarget<Target: Sendable>: Sendable {
    @usableFromInline let target: Target
    /// The generation of ``stack`` when ``target`` was resolved.
    @usableFromInline let resolvedAt: UInt64
    /// The process's current applications, held so that a check reads no lazily made global.
    @usableFromInline let stack: CurrentApplicationStack
    /// How to resolve the target again once the current application has changed.
    @usableFromInline let resolver: TargetResolver<Target>

    init(_ target: Target, resolvedAt: UInt64, in stack: CurrentApplicationStack, resolver: TargetResolver<Target>) {
        self.target = target
        self.resolvedAt = resolvedAt
        self.stack = stack
        self.resolver = resolver
    }
}
