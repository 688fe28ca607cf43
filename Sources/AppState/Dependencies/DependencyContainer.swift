import Synchronization
import Locking

/// The dependencies of an application: services made lazily by registered factories, replaceable by
/// scoped overrides (for tests, QA scenarios, previews), and — for container-scoped ones — rebuilt after
/// a container switch.
///
/// ```swift
/// dependencies.register("api", as: (any API).self, scope: .container) { LiveAPI() }
/// let api: any API = try dependencies.get("api")
/// try dependencies.override("api", with: FakeAPI()) {
///     // every get("api") here, on any thread, sees FakeAPI, until the closure returns or throws
/// }
/// ```
///
/// A `get` sees, in order: the task's overrides (``withOverrides(_:_:)``, ``override(_:with:_:)-(String,_,_)``; the
/// innermost wins), the newest held override (``override(_:with:)``), and finally the registered
/// instance, made on first use.
///
/// All methods are thread-safe; values are any `Sendable` type.
public final class DependencyContainer: Sendable {
    private static let identities = Atomic<UInt64>(0)

    /// Tells this container's task overrides and resolution chains apart from another's.
    let identity: UInt64
    private let registrations = Locked<[String: DependencyRegistration]>([:])
    /// Overrides in force until their tokens go (``override(_:with:)``).
    let heldOverrides = HeldDependencyOverrides()

    /// Creates an empty container.
    public init() {
        identity = Self.identities.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Registers `factory` under `name`, replacing any earlier registration (and dropping its instance).
    /// Nothing is made until the first ``get(_:)->Sendable``.
    ///
    /// - Parameters:
    ///   - name: the dependency's name, which gets and overrides use.
    ///   - type: the type the dependency is known as — a protocol existential like `(any API).self` lets
    ///     overrides of other conforming types in; by default the factory's result type.
    ///   - scope: ``DependencyScope/application`` (one instance) or ``DependencyScope/container`` (one
    ///     per active container).
    ///   - factory: makes the instance; it may get other dependencies (a factory that needs itself,
    ///     directly or through others, fails with ``AppStateError/Code/dependencyCycle``). Its errors are
    ///     reported as ``AppStateError/Code/factoryFailed`` and nothing is kept, so the next
    ///     get tries again. Concurrent first gets wait for one run of the factory.
    public func register<Value: Sendable>(
        _ name: String, as type: Value.Type = Value.self, scope: DependencyScope = .application,
        factory: @escaping @Sendable () throws -> Value
    ) {
        let registration = DependencyRegistration(name: name, scope: scope, factory: factory)
        registrations.withLock { $0[name] = registration }
    }

    /// Registers `factory` under `name` unless something is registered under it already, in one step:
    /// of two threads declaring the same dependency at once, one registers and neither drops the
    /// other's instance.
    func registerIfAbsent<Value: Sendable>(
        _ name: String, as type: Value.Type, scope: DependencyScope, factory: @escaping @Sendable () throws -> Value
    ) {
        registrations.withLock { registrations in
            guard registrations[name] == nil else { return }
            registrations[name] = DependencyRegistration(name: name, scope: scope, factory: factory)
        }
    }

    /// Removes the registration of `name` and its instance; removing an unknown name does nothing.
    public func unregister(_ name: String) {
        _ = registrations.withLock { $0.removeValue(forKey: name) }
    }

    /// Whether a dependency is registered under `name`.
    package func isRegistered(_ name: String) -> Bool {
        registrations.withLock { $0[name] != nil }
    }

    /// The registered names, sorted.
    package var registeredNames: [String] {
        registrations.withLock { $0.keys.sorted() }
    }

    /// The scope `name` was registered with, or nil.
    public func scope(of name: String) -> DependencyScope? {
        registrations.withLock { $0[name]?.scope }
    }

    /// The dependency `name`: an override in force — the task's (``withOverrides(_:_:)``), else the
    /// newest held one (``override(_:with:)``) — or the registered instance, made on first use.
    ///
    /// - Throws: ``AppStateError/Code/unknownDependency``, ``AppStateError/Code/dependencyCycle``,
    ///   ``AppStateError/Code/factoryFailed``.
    public func get(_ name: String) throws -> any Sendable {
        if let overridden = DependencyTaskOverrides.current[identity]?[name] { return overridden }
        if let held = heldOverrides.value(of: name) { return held }
        return try registration(name).resolve(in: identity)
    }

    /// The dependency `name` as `type`.
    ///
    /// - Throws: as ``get(_:)->Sendable``, and ``AppStateError/Code/typeMismatch``.
    public func get<Value>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        let value = try get(name)
        guard let typed = value as? Value else {
            throw AppStateError.typeMismatch(
                key: name, declared: String(reflecting: Swift.type(of: value)), requested: String(reflecting: Value.self))
        }
        return typed
    }

    /// Drops the instances of container-scoped dependencies, so each is made anew, for the new container,
    /// on next use. Application-scoped instances and overrides stay.
    public func containerDidSwitch() {
        let all = registrations.withLock { Array($0.values) }
        for registration in all where registration.scope == .container {
            registration.dropInstance()
        }
    }

    /// The registration of `name`.
    func registration(_ name: String) throws -> DependencyRegistration {
        guard let registration = registrations.withLock({ $0[name] }) else {
            throw AppStateError.unknownDependency(name)
        }
        return registration
    }

    /// Checks that `value` may stand in for dependency `name`.
    func checkOverride(_ name: String, _ value: any Sendable) throws {
        let registration = try registration(name)
        guard registration.accepts(value) else {
            throw AppStateError.typeMismatch(
                key: name, declared: registration.valueTypeName, requested: String(reflecting: type(of: value)))
        }
    }
}
