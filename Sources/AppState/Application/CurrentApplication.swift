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
/// The property wrappers keep the handle they resolved with the process's generation then: while no
/// task binding is in force anywhere and the generation is unchanged, a wrapper's access costs two
/// atomic loads more than a held handle's.
@usableFromInline
enum CurrentApplication {
    /// The process's applications made current.
    @usableFromInline static let process = CurrentApplicationStack()
    /// An application bound to a task: counted in ``CurrentApplicationStack/taskBindings`` for as long
    /// as any task holds it — the scope that bound it and the tasks it created, which may outlive that
    /// scope.
    final class Binding: Sendable {
        let application: Application

        init(_ application: Application) {
            self.application = application
            process.taskBindings.add(1, ordering: .relaxed)
        }

        deinit {
            process.taskBindings.subtract(1, ordering: .relaxed)
        }
    }

    @TaskLocal static var bound: Binding?

    /// The application bound to this task, else the process's current one.
    static var application: Application? {
        if process.taskBindings.load(ordering: .relaxed) > 0, let bound { return bound.application }
        return process.current
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
}
