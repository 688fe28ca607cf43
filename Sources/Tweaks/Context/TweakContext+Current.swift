extension TweakContext {
    /// The context of the running task and its child tasks (or of the running thread outside any task),
    /// set with `withContext(_:operation:)`; merged between the manager's global context and a
    /// lookup's own.
    public static var current: TweakContext { taskContext }

    /// Where ``current`` is kept.
    @TaskLocal static var taskContext = TweakContext.empty

    /// Runs `operation` with `context` merged over the task's current one (so nested calls add to it).
    package static func withContext<Result>(
        _ context: TweakContext, operation: () throws -> Result
    ) rethrows -> Result {
        try $taskContext.withValue(context.merged(over: current), operation: operation)
    }

    /// Runs the async `operation` with `context` merged over the task's current one.
    package static func withContext<Result: Sendable>(
        _ context: TweakContext, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $taskContext.withValue(context.merged(over: current), operation: operation, isolation: isolation)
    }
}
