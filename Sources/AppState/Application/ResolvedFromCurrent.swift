import Locking

/// What a property wrapper reaches through a key path from the current application (see
/// ``Application/current``): resolved as the wrapper is made, and used again while the current
/// application stays the same — a check of two atomic loads — otherwise resolved again through its
/// ``TargetResolver``.
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

/// How a property wrapper resolves its target in the application current now — the slow path, taken
/// when the wrapper was made without a current application or the current application has changed
/// since. It keeps its last resolution for the process's current application, so such a wrapper pays a
/// lock, not a registry lookup, per access (while no task binding is in force; under one, every access
/// resolves, since tasks may bind different applications).
@usableFromInline
final class TargetResolver<Target: Sendable>: Sendable {
    let resolve: @Sendable (Application) -> Target
    /// What the wrapper is, for the message when there is no current application (made only then).
    let use: @Sendable () -> String
    /// The current applications it resolves in: the process's, or a stack of a test's own.
    let stack: CurrentApplicationStack
    /// The last target resolved in the stack's current application, with its generation.
    private let lastResolved = Locked<(generation: UInt64, target: Target)?>(nil)

    init(
        resolve: @escaping @Sendable (Application) -> Target, use: @escaping @Sendable () -> String,
        stack: CurrentApplicationStack = CurrentApplication.process
    ) {
        self.resolve = resolve
        self.use = use
        self.stack = stack
    }

    /// Calls `body` with the target resolved in the current application now: the slow path of
    /// ``ResolvedFromCurrent/withTarget(_:)``, kept out of line.
    @inline(never) @usableFromInline
    func withTargetResolvedNow<Result>(_ body: (borrowing Target) -> Result) -> Result {
        guard stack.taskBindings.load(ordering: .relaxed) == 0 else {
            return body(resolve(CurrentApplication.required(by: use())))
        }
        // Read before the application: a target stored under an older generation is only ever resolved again.
        let generation = stack.generation.load(ordering: .acquiring)
        if let last = lastResolved.withLock({ $0 }), last.generation == generation { return body(last.target) }
        let target = resolve(stack.current ?? CurrentApplication.required(by: use()))
        lastResolved.withLock { $0 = (generation, target) }
        return body(target)
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
