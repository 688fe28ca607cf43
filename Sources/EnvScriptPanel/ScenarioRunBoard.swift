import EnvScript
import Foundation
import Locking
import Scenarios

/// The scenario runs of one panel: one at a time, on a thread of its own, each in a fresh host over a
/// fresh temporary home; the latest run and its results so far, and the pages watching them.
final class ScenarioRunBoard: Sendable {
    private struct Board {
        var latest: ScenarioRunPayload?
        var watchers: [UUID: AsyncStream<ScenarioRunEvent>.Continuation] = [:]
        var isFinishing = false
        /// The temporary folder of the run going on, if any.
        var runningRoot: URL?

        /// Sends `event` to every watcher (continuations buffer it: nothing runs here).
        func publish(_ event: ScenarioRunEvent) {
            for watcher in watchers.values { watcher.yield(event) }
        }
    }

    let scenarios: PanelScenarios
    private let board = Locked(Board())
    /// Entered while a run's thread works, so a panel that stops can wait for it.
    private let runs = DispatchGroup()

    /// How long a panel that stops waits for the run going on before it removes the run's home anyway.
    static let finishingGrace: DispatchTimeInterval = .seconds(5)

    init(scenarios: PanelScenarios) {
        self.scenarios = scenarios
    }

    /// The latest run (running or ended), nil before the first.
    var latest: ScenarioRunPayload? { board.withLock { $0.latest } }

    /// Starts running `files` (paths relative to the folder; all of them when empty) and returns the
    /// run's number; results arrive through ``watch()``.
    ///
    /// - Throws: ``ControlError`` `conflict` while another run is going on, `not_found` for a file that
    ///   is not one of the folder's scenario files, `bad_request` when the folder has none.
    func start(files requested: [String]) throws -> Int {
        let available = try scenarios.files()
        if let unknown = requested.first(where: { !available.contains($0) }) {
            throw ControlError(.notFound, "no scenario file '\(unknown)' in \(scenarios.folder.path); the files are \(available.joined(separator: ", "))")
        }
        let files = requested.isEmpty ? available : requested
        if files.isEmpty {
            throw ControlError(.badRequest, "\(scenarios.folder.path) holds no scenario files (.lua)")
        }
        let run = try board.withLock { board -> ScenarioRunPayload in
            if let latest = board.latest, latest.phase == .running {
                throw ControlError(.conflict, "run \(latest.id) is still going on; wait for it to end")
            }
            let run = ScenarioRunPayload(id: (board.latest?.id ?? 0) + 1, files: files)
            board.latest = run
            board.publish(.run(run))
            return run
        }
        runs.enter()
        let thread = Thread { [self] in
            defer { runs.leave() }
            perform(run.id, files: files)
        }
        thread.name = "envscript-panel-scenarios"
        thread.start()
        return run.id
    }

    /// The events of the runs from now on, starting with the latest run as it stands.
    func watch() -> AsyncStream<ScenarioRunEvent> {
        let (stream, continuation) = AsyncStream<ScenarioRunEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        let registered = board.withLock { board in
            guard !board.isFinishing else { return false }
            board.watchers[id] = continuation
            // Under the lock that every change is made and published under: what follows the snapshot
            // is exactly what changed after it.
            continuation.yield(.run(board.latest))
            return true
        }
        guard registered else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.board.withLock { _ = $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    /// For a panel that stops: ends every stream of ``watch()``, then waits a little for the run going
    /// on, if any. Should it still run after ``finishingGrace``, its temporary home is removed now,
    /// since the process may end before the run does and nothing would remove it then.
    func finish() {
        let watchers = board.withLock { board in
            board.isFinishing = true
            defer { board.watchers = [:] }
            return board.watchers
        }
        for watcher in watchers.values { watcher.finish() }
        if runs.wait(timeout: .now() + Self.finishingGrace) == .timedOut,
           let root = board.withLock({ $0.runningRoot }) {
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// Changes run `id` if it is still the latest, and tells the watchers with the event `announce`
    /// makes of it, in one step under the lock, so watchers see changes in the order they were made.
    @discardableResult
    private func update(
        _ id: Int, _ change: (inout ScenarioRunPayload) -> Void,
        announce: (ScenarioRunPayload) -> ScenarioRunEvent = { .run($0) }
    ) -> Bool {
        board.withLock { board in
            guard board.latest?.id == id else { return false }
            change(&board.latest!)
            board.publish(announce(board.latest!))
            return true
        }
    }

    // MARK: Running

    /// Runs `files` (relative to the folder) as run `id` in a fresh host, reporting as it goes; the
    /// temporary home is removed afterwards.
    private func perform(_ id: Int, files: [String]) {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("envscript-panel-run-\(UUID().uuidString)", isDirectory: true)
        board.withLock { $0.runningRoot = root }
        defer {
            try? FileManager.default.removeItem(at: root)
            board.withLock { $0.runningRoot = nil }
        }
        let paths = files.map { scenarios.folder.appendingPathComponent($0).path }
        do {
            let host = try scenarios.makeHost(root.appendingPathComponent("home", isDirectory: true), paths)
            defer { host.close() }
            let runner = try ScenarioRunner(host: host)
            // Compile everything first, so a syntax error in the last file runs nothing.
            let chunks = try paths.map { try host.compileScript(atPath: $0) }
            // Results name each file as the page lists it, relative to the folder; a file that fails at
            // its top level is an entry of the run, as in `envscript run`.
            let suite = try runner.load(Array(zip(files, chunks)).map { (file: $0.0, chunk: $0.1) })
            runner.run(suite, reporter: BoardReporter(board: self, run: id))
        } catch {
            fail(id, "\(error)")
        }
    }

    private func fail(_ id: Int, _ message: String) {
        update(id) { run in
            run.phase = .error
            run.error = message
        }
    }

    /// Passes the runner's reports to the board.
    private final class BoardReporter: ScenarioReporter {
        let board: ScenarioRunBoard
        let run: Int

        init(board: ScenarioRunBoard, run: Int) {
            self.board = board
            self.run = run
        }

        func runWillStart() {}

        func testDidFinish(_ result: ScenarioResult) {
            let payload = ScenarioResultPayload(result)
            board.update(run, { $0.results.append(payload) }, announce: { .result(run: $0.id, payload) })
        }

        func runDidFinish(_ summary: ScenarioSummary) {
            board.update(run) { run in
                run.phase = .finished
                run.summary = ScenarioSummaryPayload(summary)
            }
        }
    }
}
