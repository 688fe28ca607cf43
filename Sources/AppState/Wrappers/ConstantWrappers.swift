/// One part of a state of the current application, read only: `@Constant(\.settings, \.theme) var theme`.
@propertyWrapper
public struct Constant<Handle: StateHandle, Part: Sendable>: Sendable {
    @usableFromInline let state: ResolvedFromCurrent<Handle>
    @usableFromInline let part: KeyPath<Handle.Value, Part> & Sendable

    /// Wraps the part at `part` of the state `state` declares.
    public init(_ state: KeyPath<Application, Handle> & Sendable, _ part: KeyPath<Handle.Value, Part> & Sendable) {
        self.state = ResolvedFromCurrent(use: "@Constant(\(state))") { $0[keyPath: state] }
        self.part = part
    }

    /// The part's value.
    @inlinable public var wrappedValue: Part { state.withTarget { $0.value[keyPath: part] } }
}

/// One part of an optional state of the current application, read only, nil while the state is nil:
/// `@OptionalConstant(\.user, \.id) var id: UUID?`. The part may itself be optional.
@propertyWrapper
public struct OptionalConstant<Handle: StateHandle, Root: Sendable, Part: Sendable>: Sendable where Handle.Value == Root? {
    @usableFromInline let state: ResolvedFromCurrent<Handle>
    @usableFromInline let read: @Sendable (Root) -> Part?

    /// Wraps the part at `part` of the optional state `state` declares.
    public init(_ state: KeyPath<Application, Handle> & Sendable, _ part: KeyPath<Root, Part> & Sendable) {
        self.state = ResolvedFromCurrent(use: "@OptionalConstant(\(state))") { $0[keyPath: state] }
        read = { $0[keyPath: part] }
    }

    /// Wraps the optional part at `part` of the optional state `state` declares.
    public init(_ state: KeyPath<Application, Handle> & Sendable, _ part: KeyPath<Root, Part?> & Sendable) {
        self.state = ResolvedFromCurrent(use: "@OptionalConstant(\(state))") { $0[keyPath: state] }
        read = { $0[keyPath: part] }
    }

    /// The part's value, nil while the state is nil.
    public var wrappedValue: Part? { state.withTarget { $0.value.flatMap(read) } }
}
