import Locking
import Synchronization

/// Which ``Application`` the static accessors (`Application.state(\.username)`) and the property
/// wrappers (`@AppState(\.username)`) use.
///
/// Two sources, the first that has one wins:
/// 1. the application bound to the running task (or thread) by ``Application/withCurrent(_:_:)`` —
///    tests running in parallel each bind their own;
/// 2. the process's current application: the last one made current (``Application/makeCurrent()``,
///    which an `EnvScriptHost` does for its application as it opens its home) that has not resigned.
///    When it resigns, the one made current before it, if still current, takes its place.
///
/// The property wrappers keep the handle they resolved with the ``generation`` it was resolved at:
/// while no task binding is in force and the generation is unchanged, a wrapper's access costs one
/// atomic load more than a held handle's.
@usableFromInline
enum CurrentApplication {
    /// Applications made current, the current one last.
    private static let made = Locked<[Application]>([])
    /// Changes whenever the process's current application changes.
    @usableFromInline static let generation = Atomic<UInt64>(1)
    /// How many ``Application/withCurrent(_:_:)`` scopes are running, in any task.
    @usableFromInline static let taskBindings = Atomic<Int>(0)

    @TaskLocal static var bound: Application?

    /// The application bound to this task, else the process's current one.
    static var application: Application? {
        if taskBindings.load(ordering: .relaxed) > 0, let bound { return bound }
        return made.withLock { $0.last }
    }

    /// ``application``, or a stop with a message saying how to provide one.
    static func required(by use: @autoclosure () -> String) -> Application {
        guard let application else {
            fatalError("""
                \(use()) needs a current Application, and there is none: open an EnvScriptHost for the app's \
                home (it makes its application current), call makeCurrent() on an Application, or bind one \
                with Application.withCurrent(_:_:)
                """)
        }
        return application
    }

    /// Whether a handle resolved at `resolvedAt` (a value of ``generation``) still belongs to the
    /// current application.
    @inlinable
    static func isCurrent(_ resolvedAt: UInt64) -> Bool {
        resolvedAt == generation.load(ordering: .acquiring) && taskBindings.load(ordering: .relaxed) == 0
    }

    static func makeCurrent(_ application: Application) {
        made.withLock { made in
            made.removeAll { $0 === application }
            made.append(application)
            generation.add(1, ordering: .releasing)
        }
    }

    static func resign(_ application: Application) {
        made.withLock { made in
            let before = made.count
            made.removeAll { $0 === application }
            if made.count != before { generation.add(1, ordering: .releasing) }
        }
    }
}

extension Application {
    /// The application the static accessors and the property wrappers use: the one bound to the
    /// running task by ``withCurrent(_:_:)``, else the process's current one (see ``makeCurrent()``);
    /// nil when there is none.
    public static var current: Application? { CurrentApplication.application }

    /// Makes this the process's current application, until it resigns (``resignCurrent()``) or another
    /// is made current. An `EnvScriptHost` makes its application current as it opens the app's home,
    /// and resigns it as it closes.
    public func makeCurrent() {
        CurrentApplication.makeCurrent(self)
    }

    /// Stops being the process's current application; the one made current before it (and not resigned)
    /// is current again. Does nothing for an application that is not current.
    public func resignCurrent() {
        CurrentApplication.resign(self)
    }

    /// Runs `body` with `application` as the current application of this task (or thread) and of the
    /// tasks it creates; other tasks are not affected, so tests running in parallel may each bind their
    /// own.
    public static func withCurrent<Result>(_ application: Application, _ body: () throws -> Result) rethrows -> Result {
        CurrentApplication.taskBindings.add(1, ordering: .relaxed)
        defer { CurrentApplication.taskBindings.subtract(1, ordering: .relaxed) }
        return try CurrentApplication.$bound.withValue(application, operation: body)
    }

    /// The asynchronous form of ``withCurrent(_:_:)``.
    public static func withCurrent<Result>(
        _ application: Application, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        CurrentApplication.taskBindings.add(1, ordering: .relaxed)
        defer { CurrentApplication.taskBindings.subtract(1, ordering: .relaxed) }
        return try await CurrentApplication.$bound.withValue(application, operation: body, isolation: isolation)
    }
}
