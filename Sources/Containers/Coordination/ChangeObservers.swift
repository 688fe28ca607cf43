import Locking

/// Identifies a closure hook added with ``AppContainer/addWillChangeHook(_:)`` or
/// ``AppContainer/addDidChangeHook(_:)``, for ``AppContainer/removeHook(_:)``.
public struct HookToken: Hashable, Sendable {
    let id: UInt64
}

/// A closure run before a switch from `from` to `to`; throwing cancels the switch.
public typealias WillChangeHook = @Sendable (_ to: Container, _ from: Container?) throws -> Void
/// A closure run after a switch from `from` to `to`.
public typealias DidChangeHook = @Sendable (_ to: Container, _ from: Container?) -> Void

/// A weak reference that may cross threads: the referenced object is only ever called on the thread
/// doing a switch, as the protocols document.
private struct WeakReference<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    let identity: ObjectIdentifier

    init(_ object: Object) {
        self.object = object
        identity = ObjectIdentifier(object)
    }
}

/// A strong reference taken out of the registry for the duration of one call.
struct Retained<Object>: @unchecked Sendable {
    let object: Object
}

/// Delegates, hooks and participants of one ``AppContainer``, in registration order.
final class ChangeObservers: Sendable {
    /// What to call around a switch, resolved from weak references.
    enum Callee: Sendable {
        case delegate(Retained<any AppContainerDelegate>)
        case willHook(WillChangeHook)
        case didHook(DidChangeHook)
    }

    private enum Entry: Sendable {
        case delegate(WeakReference<AnyObject>)
        case willHook(HookToken, WillChangeHook)
        case didHook(HookToken, DidChangeHook)
        case listHook(HookToken, ContainerListHook)
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        var participants: [WeakReference<AnyObject>] = []
        var nextID: UInt64 = 1
    }

    private let state = Locked(State())

    func add(delegate: any AppContainerDelegate) {
        state.withLock { state in
            state.entries.removeAll { entry in
                if case .delegate(let reference) = entry { return reference.object == nil }
                return false
            }
            let identity = ObjectIdentifier(delegate)
            let present = state.entries.contains { entry in
                if case .delegate(let reference) = entry { return reference.identity == identity }
                return false
            }
            if !present { state.entries.append(.delegate(WeakReference(delegate as AnyObject))) }
        }
    }

    func remove(delegate: any AppContainerDelegate) {
        let identity = ObjectIdentifier(delegate)
        state.withLock { state in
            state.entries.removeAll { entry in
                if case .delegate(let reference) = entry {
                    return reference.identity == identity || reference.object == nil
                }
                return false
            }
        }
    }

    func addWillChange(_ hook: @escaping WillChangeHook) -> HookToken {
        add { .willHook($0, hook) }
    }

    func addDidChange(_ hook: @escaping DidChangeHook) -> HookToken {
        add { .didHook($0, hook) }
    }

    func addListChange(_ hook: @escaping ContainerListHook) -> HookToken {
        add { .listHook($0, hook) }
    }

    /// Appends the hook entry `make` builds with a new token, and returns the token.
    private func add(_ make: (HookToken) -> Entry) -> HookToken {
        state.withLock { state in
            let token = HookToken(id: state.nextID)
            state.nextID += 1
            state.entries.append(make(token))
            return token
        }
    }

    /// Removes the hook; returns whether it was registered.
    @discardableResult
    func remove(hook token: HookToken) -> Bool {
        state.withLock { state in
            let before = state.entries.count
            state.entries.removeAll { entry in
                switch entry {
                case .willHook(let candidate, _), .didHook(let candidate, _), .listHook(let candidate, _):
                    return candidate == token
                case .delegate: return false
                }
            }
            return state.entries.count != before
        }
    }

    func add(participant: any SwitchParticipant) {
        state.withLock { state in
            state.participants.removeAll { $0.object == nil }
            let identity = ObjectIdentifier(participant)
            if !state.participants.contains(where: { $0.identity == identity }) {
                state.participants.append(WeakReference(participant as AnyObject))
            }
        }
    }

    func remove(participant: any SwitchParticipant) {
        let identity = ObjectIdentifier(participant)
        state.withLock { state in
            state.participants.removeAll { $0.identity == identity || $0.object == nil }
        }
    }

    /// The live delegates and hooks, in registration order.
    func callees() -> [Callee] {
        state.withLock { state in
            state.entries.compactMap { entry -> Callee? in
                switch entry {
                case .delegate(let reference):
                    guard let delegate = reference.object as? any AppContainerDelegate else { return nil }
                    return .delegate(Retained(object: delegate))
                case .willHook(_, let hook): return .willHook(hook)
                case .didHook(_, let hook): return .didHook(hook)
                case .listHook: return nil
                }
            }
        }
    }

    /// The hooks that hear of changes of the list of containers, in registration order.
    func listHooks() -> [ContainerListHook] {
        state.withLock { state in
            state.entries.compactMap { entry in
                if case .listHook(_, let hook) = entry { return hook }
                return nil
            }
        }
    }

    /// The live participants, in registration order.
    func participants() -> [Retained<any SwitchParticipant>] {
        state.withLock { state in
            state.participants.compactMap { reference in
                (reference.object as? any SwitchParticipant).map { Retained(object: $0) }
            }
        }
    }
}
