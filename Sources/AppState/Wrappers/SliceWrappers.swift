/// One part of a state of the current application, read and written: `@Slice(\.settings, \.isDarkMode)
/// var isDarkMode: Bool`, or an entry of a dictionary, `@Slice(\.dictionary, \.["error"]) var error`.
///
/// A write changes the part within the whole value in one step (``StateHandle/update(_:)``); when that
/// fails, the changed value is kept as ``StateHandle/value`` keeps a failed write.
@propertyWrapper
public struct Slice<Handle: StateHandle, Part: Sendable>: Sendable {
    @usableFromInline let state: ResolvedFromCurrent<Handle>
    @usableFromInline let part: WritableKeyPath<Handle.Value, Part> & Sendable

    /// Wraps the part at `part` of the state `state` declares.
    public init(_ state: KeyPath<Application, Handle> & Sendable, _ part: WritableKeyPath<Handle.Value, Part> & Sendable) {
        self.state = ResolvedFromCurrent(use: "@Slice(\(state))") { $0[keyPath: state] }
        self.part = part
    }

    /// The part's value; setting it changes the part and keeps the rest of the value.
    @inlinable public var wrappedValue: Part {
        get { state.withTarget { $0.value[keyPath: part] } }
        nonmutating set { state.withTarget { $0.setPart(part, to: newValue) } }
    }

    /// The slice as a handle, for its throwing forms and observers.
    public var projectedValue: StateSlice<Handle, Part> { state.target.slice(part) }
}

/// One part of an optional state of the current application: nil while the state is nil, and writes
/// then change nothing (there is no value to change a part of). The part may itself be optional:
/// `@OptionalSlice(\.user, \.nickname) var nickname: String?` with `nickname: String?`.
@propertyWrapper
public struct OptionalSlice<Handle: StateHandle, Root: Sendable, Part: Sendable>: Sendable where Handle.Value == Root? {
    @usableFromInline let state: ResolvedFromCurrent<Handle>
    @usableFromInline let read: @Sendable (Root) -> Part?
    @usableFromInline let write: @Sendable (inout Root, Part?) -> Void

    /// Wraps the part at `part` of the optional state `state` declares.
    public init(_ state: KeyPath<Application, Handle> & Sendable, _ part: WritableKeyPath<Root, Part> & Sendable) {
        self.state = ResolvedFromCurrent(use: "@OptionalSlice(\(state))") { $0[keyPath: state] }
        read = { $0[keyPath: part] }
        // A non-optional part has no nil to take: writing nil leaves it.
        write = { root, newValue in if let newValue { root[keyPath: part] = newValue } }
    }

    /// Wraps the optional part at `part` of the optional state `state` declares.
    public init(_ state: KeyPath<Application, Handle> & Sendable, _ part: WritableKeyPath<Root, Part?> & Sendable) {
        self.state = ResolvedFromCurrent(use: "@OptionalSlice(\(state))") { $0[keyPath: state] }
        read = { $0[keyPath: part] }
        write = { root, newValue in root[keyPath: part] = newValue }
    }

    /// The part's value, nil while the state is nil; setting it changes nothing while the state is nil.
    public var wrappedValue: Part? {
        get { state.withTarget { $0.value.flatMap(read) } }
        nonmutating set {
            let write = self.write
            state.target.setPart(\.self) { whole in
                guard var root = whole else { throw SliceUnchanged() }
                write(&root, newValue)
                whole = root
            }
        }
    }
}

/// Thrown by a change of a slice that has nothing to change (an optional state that is nil), so that
/// nothing is written.
@usableFromInline
struct SliceUnchanged: Error {
    @usableFromInline init() {}
}

extension StateHandle {
    /// Sets the part at `path` to `newValue` in one step; when that fails, the changed whole is kept as a
    /// failed write of ``value`` is.
    @inlinable
    func setPart<Part>(_ path: WritableKeyPath<Value, Part> & Sendable, to newValue: Part) {
        setPart(path) { $0 = newValue }
    }

    /// Changes the part at `path` with `change` in one step; when that fails, the changed whole is kept
    /// as a failed write of ``value`` is. A change that throws ``SliceUnchanged`` changes nothing.
    @usableFromInline
    func setPart<Part>(_ path: WritableKeyPath<Value, Part> & Sendable, changing change: (inout Part) throws -> Void) {
        do {
            try update { try change(&$0[keyPath: path]) }
        } catch is SliceUnchanged {
            return
        } catch {
            // The state could not be read or saved in one step: change what the reads see, and save it
            // (or keep it in memory) as a write of `value` does, which reports the failure.
            var whole = value
            do {
                try change(&whole[keyPath: path])
            } catch {
                return
            }
            value = whole
        }
    }
}
