import Containers
import EnvScript
import Foundation

/// `envscript container activate` under Ctrl-C (SIGINT) or SIGTERM: the switch is never left half done
/// for the next command to finish. A signal before the switch's commit point cancels it — a will-change
/// hook running is stopped, moves made are undone — and the command says the home is still on the old
/// container; a signal after it lets the switch finish (its did-change hooks are stopped) and the
/// command says so. Either way it ends with ``ExitStatus/interrupted(by:)``.
enum InterruptibleActivation {
    /// Switches the home of `host` to the container named `id` (a name or UUID) and prints what happened.
    static func activate(_ id: String, in host: EnvScriptHost) throws {
        let operations = host.containerOperations
        let target = try operations.resolve(id)
        // The moment a signal arrives counts (a handler records it), not the moment a thread hears of
        // it: a Ctrl-C between two moves stops the next one. The moves are made on this thread, which
        // hears the signals even when the process was started with them blocked.
        let interruption = ChangeInterruption(requestedElsewhere: { SignalArrival.firstArrived != nil })
        let lua = host.lua.interrupter
        let signals = SignalArrival.handle([SIGINT, SIGTERM], label: "envscript.activate.signals") { _ in
            interruption.request()
            lua.interrupt()
        }
        defer { signals.cancel() }

        var change: ContainerChange?
        var failure: (any Error)?
        do {
            change = try operations.activate(target, interruption: interruption)
        } catch {
            failure = error
        }
        guard interruption.isRequested else {
            if let failure { throw failure }
            return reportChange("activated \(target.name)", change?.report ?? ContainerChangeReport())
        }
        // What the home says decides the message, not where the signal came.
        if let recovery = failure as? ContainerError, recovery.code == .recoveryFailed { throw recovery }
        let status = ExitStatus.interrupted(by: SignalArrival.firstArrived ?? SIGINT)
        let active = try host.containers.activeContainer
        if active.uuid == target.uuid {
            reportChange("activated \(target.name)", change?.report ?? ContainerChangeReport())
            throw CommandFailure(
                message: "interrupted: the switch to \(target.name) was already made when the interrupt came, so it was finished; the home is on \(target.name)",
                status: status)
        }
        throw CommandFailure(
            message: "interrupted: the switch to \(target.name) was cancelled and undone, nothing on disk changed; the home is still on \(active.name)",
            status: status)
    }
}

extension ExitStatus {
    /// A command stopped by `signal` (SIGINT for Ctrl-C, or SIGTERM) that stopped cleanly: 128 plus the
    /// signal's number, as a shell reports a process the signal ended (130 for Ctrl-C, 143 for SIGTERM).
    static func interrupted(by signal: Int32) -> Int32 {
        128 + (signal == 0 ? SIGINT : signal)
    }
}
