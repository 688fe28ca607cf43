import Locking

/// Blocking work that many callers may ask for at once and that one run serves for all of them: a
/// host told by seven busy processes that they wrote the stores needs to re-read them once, not seven
/// times, each time under the stores lock.
///
/// A caller waits until a run that *started after it asked* has ended, so what it announced is taken
/// in; callers that ask while a run is under way share the next run. At most one run is under way.
final class CoalescedWork: Sendable {
    private struct State {
        /// Requests numbered in order of arrival; the last number given.
        var requested = 0
        /// Whether a run is under way (or about to start).
        var running = false
        /// Callers waiting, with the number of their request.
        var waiting: [(ticket: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let work: @Sendable () throws -> Void
    private let state = Locked(State())

    /// Work that `run()` carries out; it runs on the blocking queue (see ``BlockingWork``).
    init(_ work: @escaping @Sendable () throws -> Void) {
        self.work = work
    }

    /// Returns (or throws the error of) the first run that started after this call.
    func run() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let startsRuns = state.withLock { state -> Bool in
                state.requested += 1
                state.waiting.append((state.requested, continuation))
                defer { state.running = true }
                return !state.running
            }
            if startsRuns { Task { await self.runWhileAsked() } }
        }
    }

    /// Runs until no request is left unserved.
    private func runWhileAsked() async {
        while true {
            let covered = state.withLock { $0.requested }
            let outcome: Result<Void, any Error>
            do {
                try await BlockingWork.run(work)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            // Decided under the lock that a new caller takes, so exactly one loop runs at a time.
            let (served, goesOn) = state.withLock { state -> ([CheckedContinuation<Void, any Error>], Bool) in
                let served = state.waiting.filter { $0.ticket <= covered }.map(\.continuation)
                state.waiting.removeAll { $0.ticket <= covered }
                state.running = !state.waiting.isEmpty
                return (served, state.running)
            }
            for continuation in served { continuation.resume(with: outcome) }
            if !goesOn { return }
        }
    }
}
