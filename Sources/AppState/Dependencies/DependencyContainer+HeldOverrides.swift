import Locking
import Synchronization

/// The held overrides of one ``DependencyContainer``: for each name, the overrides in force, newest last.
final class HeldDependencyOverrides: Sendable {
    private struct Entry {
        let id: UInt64
        let value: any Sendable
    }

    private let entries = Locked<(nextID: UInt64, byName: [String: [Entry]])>((0, [:]))
    /// How many overrides are held, so a get with none costs one atomic load.
    private let count = Atomic<Int>(0)

    /// The newest override of `name` in force, if any.
    func value(of name: String) -> (any Sendable)? {
        guard count.load(ordering: .acquiring) > 0 else { return nil }
        return entries.withLock { $0.byName[name]?.last?.value }
    }

    /// Adds an override of `name`; returns what removes it.
    func add(_ value: any Sendable, for name: String) -> @Sendable () -> Void {
        let id = entries.withLock { entries in
            entries.nextID += 1
            entries.byName[name, default: []].append(Entry(id: entries.nextID, value: value))
            count.add(1, ordering: .releasing)
            return entries.nextID
        }
        return { [self] in
            entries.withLock { entries in
                guard var list = entries.byName[name], let index = list.firstIndex(where: { $0.id == id }) else { return }
                list.remove(at: index)
                entries.byName[name] = list.isEmpty ? nil : list
                count.subtract(1, ordering: .releasing)
            }
        }
    }
}

extension DependencyContainer {
    /// Makes `name` resolve to `value` for every task and thread until the returned override is
    /// cancelled or dropped — AppState's `Application.override`, without its faults: dropping the token
    /// undoes it, and overrides of the same name nest in any order (see ``DependencyOverride``).
    ///
    /// - Throws: ``AppStateError/Code/unknownDependency`` or ``AppStateError/Code/typeMismatch``.
    public func override(_ name: String, with value: any Sendable) throws -> DependencyOverride {
        try checkOverride(name, value)
        return DependencyOverride(undo: heldOverrides.add(value, for: name))
    }
}
