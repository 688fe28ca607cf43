/// Overrides that hold for one task and the tasks it creates (``DependencyContainer/withOverrides(_:_:)``),
/// by container, so overrides of one container never leak into another.
enum DependencyTaskOverrides {
    @TaskLocal static var current: [UInt64: [String: any Sendable]] = [:]
}
