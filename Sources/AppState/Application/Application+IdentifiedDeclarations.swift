extension Application {
    /// Memory state under `id`, declared AppState's way, in a computed property of an extension:
    ///
    /// ```swift
    /// extension Application {
    ///     var username: State<String> { state(initial: "Leif", id: "username") }
    /// }
    /// ```
    ///
    /// The first use declares it (`initial` is evaluated then, and only then); later uses return the same
    /// state. The key space is the one of ``state(_:initial:)`` and of the Lua `state` module, so a script
    /// reads the same value under `id`.
    ///
    /// `id` declared before as another kind or type is a programming error, and stops the program
    /// naming both declarations; ``state(_:initial:)`` throws instead.
    public func state<Value: Sendable>(initial: @autoclosure () -> Value, id: String) -> State<Value> {
        declaredOrStop { try declareMemory(id, initial: initial) }
    }

    /// Stored state under `id` (the container's preferences), declared AppState's way; see
    /// ``state(initial:id:)`` and ``storedState(_:initial:)``.
    public func storedState<Value: Codable & Sendable>(initial: @autoclosure () -> Value, id: String) -> StoredState<Value> {
        declaredOrStop { try declareStored(id, initial: initial) }
    }

    /// File state under `id` (a JSON file in the container), declared AppState's way; see
    /// ``state(initial:id:)`` and ``fileState(_:initial:)``.
    public func fileState<Value: Codable & Sendable>(initial: @autoclosure () -> Value, id: String) -> FileState<Value> {
        declaredOrStop { try declareFile(id, initial: initial) }
    }

    /// Secure state under `id` (encrypted at rest), declared AppState's way; see ``state(initial:id:)``
    /// and ``secureState(_:initial:)``.
    public func secureState<Value: Codable & Sendable>(initial: @autoclosure () -> Value, id: String) -> SecureState<Value> {
        declaredOrStop { try declareSecure(id, initial: initial) }
    }

    /// A secure string under `id`, nil until set — AppState's `secureState(id:)`.
    public func secureState(id: String) -> SecureState<String?> {
        declaredOrStop { try declareSecure(id, initial: { nil }) }
    }

    private func declaredOrStop<Handle>(_ declare: () throws -> Handle) -> Handle {
        do {
            return try declare()
        } catch {
            fatalError("\(error). Declare each id once with one kind and type, or use the throwing declarations (state(_:initial:), ...) to handle a conflict.")
        }
    }
}
