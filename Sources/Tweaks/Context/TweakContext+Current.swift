extension TweakContext {
    /// The context of the running task and its child tasks, set with ``withContext(_:operation:)``;
    /// merged between the manager's global context and a lookup's own.
    @TaskLocal public static var current = TweakContext.empty

    /// Runs `operation` with `context` merged over the task's current one (so nested calls add to it).
    public static func withContext<Result>(
        _ context: TweakContext, operation: () throws -> Result
    ) rethrows -> Result {
        try $current.withValue(context.merged(over: current), operation: operation)
    }

    /// Runs the async `operation` with `context` merged over the task's current one.
    public static func withContext<Result: Sendable>(
        _ context: TweakContext, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $current.withValue(context.merged(over: current), operation: operation, isolation: isolation)
    }
}
