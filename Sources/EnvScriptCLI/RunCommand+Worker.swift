import CSignalArrival
import EnvScript
import Foundation
import Locking
import Scenarios

extension RunCommand {
    /// A worker of `envscript run --jobs N` (``JobCoordinator``): opens its host as a run does (the run
    /// has checked that every file compiles), then runs each file the run sends and answers its results,
    /// what it printed, and at the end the lines counted. Its standard input is
    /// then /dev/null and its output is captured per file, so specs that read or print see what they
    /// would in one process. It ends when the run does (Linux's parent-death signal).
    func serve(_ plan: Plan, interruption: RunInterruption) throws {
        // A worker whose run has already gone ends at once.
        if let workerOf, esa_end_with_parent(SIGTERM, Int32(truncatingIfNeeded: workerOf)) == 0 {
            throw CommandFailure(message: "", status: ExitStatus.failure)
        }
        // Kept from the processes the specs start (close-on-exec): one left running in the background
        // would otherwise hold the run's pipes open.
        let channel = fcntl(1, F_DUPFD_CLOEXEC, 3)
        let requests = fcntl(0, F_DUPFD_CLOEXEC, 3)
        let nothing = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if nothing >= 0 { dup2(nothing, 0); close(nothing) }
        let capture = try OutputCapture()
        interruption.removesOnExit(capture.folder)
        defer {
            interruption.forget(capture.folder)
            capture.remove()
        }
        let inbox = WorkerInbox(descriptor: requests)
        do {
            try withRunHost(plan, interruption: interruption, writesCoverage: false) { host, limits in
                let runner = try ScenarioRunner(host: host, limits: limits, seed: shuffleSeed(), savesState: true)
                if let helper = plan.helper {
                    do {
                        try runner.loadHelper(try host.compileScript(atPath: helper), file: helper)
                    } catch let error as ScenarioRunner.LoadError {
                        var failure = ErrorReport.failure(for: error.underlying)
                        failure.status = ExitStatus.usage
                        failure.message = "in the helper \(helper) (--helper): \(failure.message)"
                        throw failure
                    }
                }
                let startup = capture.take()
                WorkerMessage.ready(output: startup.output, errorOutput: startup.errorOutput).send(to: channel)
                var selection = self.selection
                selection.failedElsewhere = { inbox.stopAsked }
                // --fail-fast: a failure elsewhere interrupts the test running here too.
                let interrupter = host.lua.interrupter
                inbox.onStop { interrupter.interrupt() }
                while !interruption.isStopped, let request = inbox.next() {
                    let chunk = try host.compileScript(atPath: request.file)
                    let suite = try runner.load([(request.file, chunk)], includingHelper: request.includingHelper)
                    let reporter = WorkerReporter(index: request.index, channel: channel, inbox: inbox)
                    let summary = runner.run(suite, selection: selection, reporter: reporter)
                    let printed = capture.take()
                    WorkerMessage.finished(
                        index: request.index, output: printed.output, errorOutput: printed.errorOutput,
                        notRun: summary.notRun + reporter.leftOut, stopReason: summary.stopReason
                    ).send(to: channel)
                }
                if plan.coverage { WorkerMessage.coverage(host.lock.withLock { host.lua.coverage }).send(to: channel) }
            }
        } catch {
            let failure = ErrorReport.failure(for: error)
            WorkerMessage.fatal(message: failure.message, status: failure.status).send(to: channel)
            throw CommandFailure(message: "", status: failure.status)
        }
    }
}

/// The files a worker is sent, read from the run on a thread of its own so that a stop (`--fail-fast`)
/// is heard while a file runs.
final class WorkerInbox: Sendable {
    struct Request {
        var index: Int
        var file: String
        var includingHelper: Bool
    }

    private let state = Locked<(requests: [Request], ended: Bool, stopAsked: Bool, onStop: (@Sendable () -> Void)?)>(([], false, false, nil))
    private let arrived = DispatchSemaphore(value: 0)

    init(descriptor: Int32) {
        let thread = Thread { [self] in
            readLines(from: descriptor) { line in
                switch try? WorkerMessage(line: line) {
                case .run(let index, let file, let includingHelper)?:
                    state.withLock { $0.requests.append(Request(index: index, file: file, includingHelper: includingHelper)) }
                    arrived.signal()
                    return true
                case .stop?:
                    state.withLock { state in
                        state.stopAsked = true
                        state.onStop?()
                    }
                    return true
                default:
                    return false
                }
            }
            state.withLock { $0.ended = true }
            arrived.signal()
        }
        thread.name = "envscript.run.worker.inbox"
        thread.start()
    }

    /// Whether the run asked every worker to stop.
    var stopAsked: Bool { state.withLock { $0.stopAsked } }

    /// What a stop does beyond ``stopAsked`` (interrupt the Lua code running); at once if one came.
    func onStop(_ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.onStop = action
            if state.stopAsked { action() }
        }
    }

    /// The next file to run; nil once the run has nothing more.
    func next() -> Request? {
        while true {
            let (request, ended): (Request?, Bool) = state.withLock { state in
                state.requests.isEmpty ? (nil, state.ended) : (state.requests.removeFirst(), false)
            }
            if let request { return request }
            if ended { return nil }
            arrived.wait()
        }
    }
}

/// Sends each result of a file to the run as it ends. Once a failure elsewhere stopped the run
/// (`--fail-fast`), a test its stop interrupted is left out and counted as not run: in one process it
/// would not have started.
final class WorkerReporter: ScenarioReporter {
    let index: Int
    let channel: Int32
    let inbox: WorkerInbox
    /// The results left out so.
    private(set) var leftOut = 0

    init(index: Int, channel: Int32, inbox: WorkerInbox) {
        self.index = index
        self.channel = channel
        self.inbox = inbox
    }

    func runWillStart() {}

    func testDidFinish(_ result: ScenarioResult) {
        if inbox.stopAsked, case .error(let message, _) = result.outcome, message == "interrupted" || message.hasSuffix(": interrupted") {
            leftOut += 1
            return
        }
        WorkerMessage.result(index: index, result).send(to: channel)
    }

    func runDidFinish(_ summary: ScenarioSummary) {}
}
