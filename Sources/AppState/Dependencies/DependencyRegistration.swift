import Locking

/// One registered dependency: its factory, and its instance once made.
final class DependencyRegistration: Sendable {
    let name: String
    let scope: DependencyScope
    /// The declared type, for error messages.
    let valueTypeName: String
    /// Whether a value (an override) has the declared type.
    let accepts: @Sendable (any Sendable) -> Bool
    private let factory: @Sendable () throws -> any Sendable
    /// Held while the factory runs, so concurrent first uses make one instance.
    private let instance = Locked<(any Sendable)?>(nil)

    init<Value: Sendable>(name: String, scope: DependencyScope, factory: @escaping @Sendable () throws -> Value) {
        self.name = name
        self.scope = scope
        self.valueTypeName = String(reflecting: Value.self)
        self.accepts = { $0 is Value }
        self.factory = factory
    }

    /// The instance, made on first use.
    ///
    /// - Parameter container: the owner's identity, so a cycle is recognised per container.
    func resolve(in container: UInt64) throws -> any Sendable {
        let chain = DependencyResolutionChain.current
        let step = DependencyResolutionChain.Step(container: container, name: name)
        // The factory of this dependency is already running on this thread, holding the lock: taking it
        // again would deadlock, so report the cycle instead.
        if chain.contains(step) {
            throw AppStateError.dependencyCycle(chain.filter { $0.container == container }.map(\.name) + [name])
        }
        return try instance.withLock { instance -> any Sendable in
            if let made = instance { return made }
            let made = try DependencyResolutionChain.$current.withValue(chain + [step]) { try makeInstance() }
            instance = made
            return made
        }
    }

    /// Drops the instance, so the next use makes a new one; waits for a factory that is running.
    func dropInstance() {
        instance.withLock { $0 = nil }
    }

    private func makeInstance() throws -> any Sendable {
        do {
            return try factory()
        } catch let error as AppStateError {
            // Already names what failed (a nested dependency, a cycle).
            throw error
        } catch {
            throw AppStateError.factoryFailed(name: name, underlying: error)
        }
    }
}

/// The dependencies being made on the current thread or task, innermost last.
enum DependencyResolutionChain {
    struct Step: Sendable, Hashable {
        let container: UInt64
        let name: String
    }

    @TaskLocal static var current: [Step] = []
}
