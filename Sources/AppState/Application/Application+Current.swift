extension Application {
    /// The application the static accessors and the property wrappers use: the one bound to the
    /// running task by ``withCurrent(_:_:)``, else the process's current one (see ``makeCurrent()``);
    /// nil when there is none.
    public static var current: Application? { CurrentApplication.application }

    /// Makes this the process's current application, until it resigns (``resignCurrent()``) or another
    /// is made current. An `EnvScriptHost` makes its application current as it opens the app's home,
    /// and resigns it as it closes.
    public func makeCurrent() {
        CurrentApplication.process.makeCurrent(self)
    }

    /// Stops being the process's current application, or one to come back to: when it is current, the
    /// one made current before it (and not resigned) is current again. Does nothing for an application
    /// never made current.
    public func resignCurrent() {
        CurrentApplication.process.resign(self)
    }

    /// Runs `body` with `application` as the current application of this task (or thread) and of the
    /// tasks it creates; other tasks are not affected, so tests running in parallel may each bind their
    /// own.
    public static func withCurrent<Result>(_ application: Application, _ body: () throws -> Result) rethrows -> Result {
        try CurrentApplication.$bound.withValue(CurrentApplication.Binding(application), operation: body)
    }

    /// The asynchronous form of ``withCurrent(_:_:)``.
    public static func withCurrent<Result>(
        _ application: Application, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await CurrentApplication.$bound.withValue(CurrentApplication.Binding(application), operation: body, isolation: isolation)
    }
}
