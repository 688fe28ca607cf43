import Foundation
import Locking
import Scenarios

/// Runs spec files in worker processes (`envscript run --jobs N`) and hands their results on in file
/// order, as one process would have reported them.
///
/// Each worker holds one file in reserve behind the one it runs while more files are left than
/// workers, so that it never waits for the run between two files; the last files go one at a time to
/// whichever worker finishes first.
/// A file's results and what it printed are kept until every file before it has ended, then handed
/// on together; with `--repeat`, the passes after the first come at the end, pass by pass, in file
/// order, as one process runs them. With `--fail-fast`, the first failure stops every worker at its
/// next test and no file starts after it. Ctrl-C is passed on to every worker once (each reports its
/// test as interrupted, as one process does). A worker that ends before its file did makes that file
/// an errored one; a worker that cannot run anything (a file that does not compile) ends the run with
/// its message.
final class JobCoordinator {
    /// The files, in the order of the run.
    let files: [String]
    /// The command line of a worker.
    let workerArguments: [String]
    let jobs: Int
    let failFast: Bool

    /// What the workers' runs came to, beyond their results.
    struct Outcome {
        /// Tests counted as not run.
        var notRun = 0
        /// Why the run stopped early (the first file's in file order that said so).
        var stopReason: String?
        /// The lines counted, all workers' together (`--coverage`).
        var coverage: [String: [Int: Int]] = [:]
        /// Why nothing could run, and the status to end with.
        var fatal: (message: String, status: Int32)?
    }

    private struct FileState {
        var results: [ScenarioResult] = []
        var output = Data()
        var errorOutput = Data()
        var finished = false
        var stopReason: String?
    }

    private let events = Locked<[(worker: Int, message: WorkerMessage?)]>([])
    private let arrived = DispatchSemaphore(value: 0)

    init(files: [String], workerArguments: [String], jobs: Int, failFast: Bool) {
        self.files = files
        self.workerArguments = workerArguments
        self.jobs = jobs
        self.failFast = failFast
    }

    /// The workers, once started.
    private var workers: [WorkerProcess] = []

    /// Starts the workers; they read the project and open their hosts while this process goes on (it
    /// checks that every file compiles meanwhile). No file runs before ``run(interruption:print:deliver:)``.
    func start() throws {
        do {
            for _ in 0..<jobs { workers.append(try WorkerProcess(arguments: workerArguments)) }
        } catch {
            // No reader runs yet: each is waited for here.
            for worker in workers {
                worker.finishInput()
                worker.signal(SIGTERM)
                _ = worker.wait()
            }
            throw error
        }
        for (index, worker) in workers.enumerated() {
            worker.readMessages { [events, arrived] message in
                events.withLock { $0.append((index, message)) }
                arrived.signal()
            }
        }
    }

    /// Ends the workers started, before any file runs.
    func abandon() {
        for worker in workers {
            worker.finishInput()
            worker.signal(SIGTERM)
        }
        // Each worker's output ends as it does: its reader says so with nil.
        var ended = 0
        while ended < workers.count {
            arrived.wait()
            ended += events.withLock { events in
                defer { events.removeAll() }
                return events.filter { $0.message == nil }.count
            }
        }
        for worker in workers { _ = worker.wait() }
    }

    /// Runs every file in the workers started; `deliver` gets each result in order, `print` each file's
    /// output (standard output, then standard error) just before its results. `interruption`'s stop
    /// reaches every worker.
    func run(
        interruption: RunInterruption, print: (Data, Data) -> Void, deliver: (ScenarioResult) -> Void
    ) throws -> Outcome {
        let everyWorker = workers
        interruption.target.attach { everyWorker.forEach { $0.signal(SIGINT) } }
        defer { interruption.target.detach() }

        var states = Array(repeating: FileState(), count: files.count)
        var outcome = Outcome()
        var next = 0
        var delivered = 0
        var running = workers.count
        var stopping = false
        var startupPrinted = false

        /// Files left unstarted by a worker that ended, sent again first.
        var returned: [Int] = []

        func takeFile() -> Int? {
            guard !stopping, !interruption.isStopped else { return nil }
            if !returned.isEmpty { return returned.removeFirst() }
            guard next < files.count else { return nil }
            defer { next += 1 }
            return next
        }
        /// Gives `worker` a file to run and, while there are more files left than workers, one in
        /// reserve (so that it never waits for this process between two files); with none left, tells
        /// it there is no more. A file a dead worker left goes to the next worker to ask, if any does.
        func dispatch(_ worker: WorkerProcess) {
            while worker.sent.count < (files.count - next > workers.count ? 2 : 1), let file = takeFile() {
                worker.sent.append(file)
                worker.send(.run(index: file, file: files[file], includingHelper: file == 0))
            }
            if worker.sent.isEmpty { worker.finishInput() }
        }
        func stopAll(_ message: WorkerMessage) {
            stopping = true
            for worker in workers { worker.send(message) }
        }
        /// Hands on the files finished in order so far; at the end (`skippingUnfinished`), also those
        /// after a file that never finished (the run stopped).
        func deliverFinished(skippingUnfinished: Bool = false) {
            while delivered < states.count, states[delivered].finished || skippingUnfinished {
                let state = states[delivered]
                if state.finished {
                    print(state.output, state.errorOutput)
                    state.results.filter { $0.pass == 0 }.forEach(deliver)
                }
                delivered += 1
            }
        }

        while running > 0 {
            arrived.wait()
            let batch: [(worker: Int, message: WorkerMessage?)] = events.withLock { events in
                defer { events.removeAll() }
                return events
            }
            for (index, message) in batch {
                let worker = workers[index]
                switch message {
                case nil:
                    running -= 1
                    let status = worker.wait()
                    // Ended before its file did: a crash, or a signal from outside (not a stop of the
                    // run's, after which a file not finished is one not run, as in one process). Its
                    // file in reserve goes to another worker.
                    if let file = worker.sent.first, !interruption.isStopped, outcome.fatal == nil {
                        states[file].results.append(Self.endedEarly(files[file], status: status))
                        states[file].finished = true
                        returned += worker.sent.dropFirst()
                    }
                    worker.sent = []
                case .ready(let output, let errorOutput)?:
                    if !startupPrinted { print(output, errorOutput) }
                    startupPrinted = true
                    dispatch(worker)
                case .result(let file, let result)?:
                    guard states.indices.contains(file) else { continue }
                    states[file].results.append(result)
                    if failFast, !stopping, result.fails { stopAll(.stop) }
                case .finished(let file, let output, let errorOutput, let notRun, let stopReason)?:
                    guard states.indices.contains(file) else { continue }
                    states[file].output = output
                    states[file].errorOutput = errorOutput
                    states[file].stopReason = stopReason
                    states[file].finished = true
                    outcome.notRun += notRun
                    worker.sent.removeAll { $0 == file }
                    // A run whose time is up (--timeout) starts no more files.
                    if stopReason != nil { stopping = true }
                    dispatch(worker)
                case .coverage(let counted)?:
                    for (file, lines) in counted { outcome.coverage[file, default: [:]].merge(lines, uniquingKeysWith: +) }
                case .fatal(let message, let status)?:
                    if outcome.fatal == nil { outcome.fatal = (message, status) }
                    stopping = true
                    for worker in workers {
                        worker.finishInput()
                        worker.signal(SIGTERM)
                    }
                case .run?, .stop?:
                    continue
                }
            }
            deliverFinished()
        }
        deliverFinished(skippingUnfinished: true)
        let later = states.flatMap { $0.results.filter { $0.pass > 0 } }
        for pass in Set(later.map(\.pass)).sorted() { later.filter { $0.pass == pass }.forEach(deliver) }
        outcome.stopReason = states.lazy.compactMap(\.stopReason).first
        if outcome.fatal == nil, !stopping, !interruption.isStopped, next < files.count || !returned.isEmpty {
            outcome.fatal = ("envscript: the workers of --jobs ended before every file had run; run with --jobs 1 to see why", ExitStatus.failure)
        }
        return outcome
    }

    /// The entry of a file whose worker ended before it did.
    private static func endedEarly(_ file: String, status: Int32) -> ScenarioResult {
        let how = (status & 0x7f) != 0 ? "was killed by signal \(status & 0x7f)" : "exited with status \((status >> 8) & 0xff)"
        return ScenarioResult(
            file: file, names: [],
            outcome: .errored(message: "the worker process running this file \(how) before the file ended", traceback: nil, line: nil),
            duration: .zero)
    }
}

extension ScenarioResult {
    /// Whether the result fails the run (what `--fail-fast` stops at).
    var fails: Bool {
        switch outcome {
        case .failed, .error, .errored: return true
        case .passed, .skipped: return false
        }
    }
}
