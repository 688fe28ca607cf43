import Locking

/// One thing a script registered with the engines — a switch hook, a `tweak.on_change` handler, a
/// dependency — with how to undo it.
///
/// A script running in the generation in force installs it at once. A script being reloaded only
/// records it: the generation it belongs to installs it when it replaces the one in force, and a
/// reload that fails drops it without its ever having run. Removing it (the script's `handle:remove()`,
/// or its generation giving way to the next) undoes what was installed; doing either again does nothing.
final class ScriptRegistration: Sendable {
    private enum Phase {
        case waiting(install: @Sendable () -> @Sendable () -> Void)
        case installed(remove: @Sendable () -> Void)
        case removed
    }

    private let phase: Locked<Phase>

    /// A registration that `install` carries out, returning how to undo it.
    init(install: @escaping @Sendable () -> @Sendable () -> Void) {
        phase = Locked(.waiting(install: install))
    }

    /// Installs it, unless it is installed or removed already.
    func install() {
        let install = phase.withLock { phase -> (@Sendable () -> @Sendable () -> Void)? in
            guard case .waiting(let install) = phase else { return nil }
            return install
        }
        guard let install else { return }
        let remove = install()
        // Removed meanwhile from another thread: undone at once.
        let removedMeanwhile = phase.withLock { phase -> Bool in
            guard case .waiting = phase else { return true }
            phase = .installed(remove: remove)
            return false
        }
        if removedMeanwhile { remove() }
    }

    /// Undoes it if it was installed; a waiting one is dropped.
    func remove() {
        let remove = phase.withLock { phase -> (@Sendable () -> Void)? in
            defer { phase = .removed }
            guard case .installed(let remove) = phase else { return nil }
            return remove
        }
        remove?()
    }
}
