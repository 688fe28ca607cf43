extension Application {
    /// The state a declaration of the current application gives: `Application.state(\.username).value`.
    ///
    /// Stops the program when there is no current application (see ``current``).
    public static func state<Value>(_ keyPath: KeyPath<Application, State<Value>>) -> State<Value> {
        CurrentApplication.required(by: "Application.state(\(keyPath))")[keyPath: keyPath]
    }

    /// The stored state a declaration of the current application gives; see ``state(_:)``.
    public static func storedState<Value>(_ keyPath: KeyPath<Application, StoredState<Value>>) -> StoredState<Value> {
        CurrentApplication.required(by: "Application.storedState(\(keyPath))")[keyPath: keyPath]
    }

    /// The file state a declaration of the current application gives; see ``state(_:)``.
    public static func fileState<Value>(_ keyPath: KeyPath<Application, FileState<Value>>) -> FileState<Value> {
        CurrentApplication.required(by: "Application.fileState(\(keyPath))")[keyPath: keyPath]
    }

    /// The secure state a declaration of the current application gives; see ``state(_:)``.
    public static func secureState<Value>(_ keyPath: KeyPath<Application, SecureState<Value>>) -> SecureState<Value> {
        CurrentApplication.required(by: "Application.secureState(\(keyPath))")[keyPath: keyPath]
    }

    /// The dependency a declaration of the current application gives: `Application.dependency(\.network)`.
    ///
    /// Stops the program when there is no current application, or when the dependency cannot be made
    /// (see ``Dependency/value``).
    public static func dependency<Value>(_ keyPath: KeyPath<Application, Dependency<Value>>) -> Value {
        CurrentApplication.required(by: "Application.dependency(\(keyPath))")[keyPath: keyPath].value
    }

    /// Makes the dependency of `keyPath` resolve to `value` in the current application until the
    /// returned override is cancelled or dropped; see ``DependencyContainer/override(_:with:)``.
    ///
    /// Stops the program when there is no current application; a value of another type than the
    /// dependency's cannot be passed (the key path's type says which).
    public static func override<Value>(_ keyPath: KeyPath<Application, Dependency<Value>>, with value: Value) -> DependencyOverride {
        let dependency = CurrentApplication.required(by: "Application.override(\(keyPath))")[keyPath: keyPath]
        do {
            return try dependency.container.override(dependency.id, with: value)
        } catch {
            fatalError("\(error)")
        }
    }
}
