/// A dependency of the current application: `@AppDependency(\.network) var network`. Each read sees
/// the overrides in force then.
@propertyWrapper
public struct AppDependency<Value: Sendable>: Sendable {
    @usableFromInline let dependency: ResolvedFromCurrent<Application.Dependency<Value>>

    /// Wraps the dependency `keyPath` declares.
    public init(_ keyPath: KeyPath<Application, Application.Dependency<Value>> & Sendable) {
        dependency = ResolvedFromCurrent(use: "@AppDependency(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The dependency (see ``Application/Dependency/value``).
    @inlinable public var wrappedValue: Value { dependency.withTarget { $0.value } }
}

/// A property of a dependency of the current application, read and written:
/// `@DependencySlice(\.settings, \.mode) var mode`. The dependency is an object (a class instance), whose
/// property is changed in place.
@propertyWrapper
public struct DependencySlice<Value: Sendable, Part>: Sendable {
    @usableFromInline let dependency: ResolvedFromCurrent<Application.Dependency<Value>>
    @usableFromInline let part: ReferenceWritableKeyPath<Value, Part> & Sendable

    /// Wraps the property at `part` of the dependency `dependency` declares.
    public init(
        _ dependency: KeyPath<Application, Application.Dependency<Value>> & Sendable,
        _ part: ReferenceWritableKeyPath<Value, Part> & Sendable
    ) {
        self.dependency = ResolvedFromCurrent(use: "@DependencySlice(\(dependency))") { $0[keyPath: dependency] }
        self.part = part
    }

    /// The property's value; setting it changes the dependency's property.
    @inlinable public var wrappedValue: Part {
        get { dependency.withTarget { $0.value[keyPath: part] } }
        nonmutating set { dependency.withTarget { $0.value[keyPath: part] = newValue } }
    }
}

/// A property of a dependency of the current application, read only:
/// `@DependencyConstant(\.network, \.baseURL) var baseURL`.
@propertyWrapper
public struct DependencyConstant<Value: Sendable, Part>: Sendable {
    @usableFromInline let dependency: ResolvedFromCurrent<Application.Dependency<Value>>
    @usableFromInline let part: KeyPath<Value, Part> & Sendable

    /// Wraps the property at `part` of the dependency `dependency` declares.
    public init(
        _ dependency: KeyPath<Application, Application.Dependency<Value>> & Sendable, _ part: KeyPath<Value, Part> & Sendable
    ) {
        self.dependency = ResolvedFromCurrent(use: "@DependencyConstant(\(dependency))") { $0[keyPath: dependency] }
        self.part = part
    }

    /// The property's value.
    @inlinable public var wrappedValue: Part { dependency.withTarget { $0.value[keyPath: part] } }
}
