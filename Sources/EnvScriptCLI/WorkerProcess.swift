import EnvScript
import Foundation
import Locking

/// A worker process of `envscript run --jobs N`: this program again, run with the same command line
/// and `--worker-of PID`, in a process group of its own (a terminal's Ctrl-C reaches the run, which passes it
/// on once), its standard input and output pipes to the run.
final class WorkerProcess: @unchecked Sendable {
    let pid: pid_t
    /// The run's end of the worker's standard input; -1 once closed.
    private var input: Int32
    /// The run's end of the worker's standard output: its messages.
    let output: Int32
    /// The `index`es of the files sent to the worker and not finished: the one it runs, then the one
    /// it holds in reserve.
    var sent: [Int] = []

    /// Starts `arguments` (without the program) as a worker.
    init(arguments: [String]) throws {
        var toWorker: [Int32] = [-1, -1]
        var fromWorker: [Int32] = [-1, -1]
        guard pipe(&toWorker) == 0 else { throw Self.failure("a pipe", errno) }
        guard pipe(&fromWorker) == 0 else {
            close(toWorker[0]); close(toWorker[1])
            throw Self.failure("a pipe", errno)
        }
        // Only the worker's ends reach it, as its standard input and output (dup2 clears the flag).
        for descriptor in toWorker + fromWorker { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        defer {
            close(toWorker[0])
            close(fromWorker[1])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toWorker[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromWorker[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE, SIGURG] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let program = CommandLine.arguments.first ?? "envscript"
        var argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, &argv, environ)
        guard spawned == 0 else {
            close(toWorker[1]); close(fromWorker[0])
            throw Self.failure("a worker process", spawned)
        }
        self.pid = pid
        self.input = toWorker[1]
        self.output = fromWorker[0]
    }

    private static func failure(_ what: String, _ number: Int32) -> CommandFailure {
        CommandFailure.failure("envscript: cannot start \(what) for --jobs: \(FileErrorReason.describe(errno: number)); run with --jobs 1")
    }

    /// Sends `message`; a worker that has gone reads nothing, and its end is noticed on its output.
    func send(_ message: WorkerMessage) {
        if input >= 0 { message.send(to: input) }
    }

    /// Tells the worker there is nothing more to run: it ends once its file has.
    func finishInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Whether the worker has been waited for: its pid may then be another process's.
    private let reaped = Locked(false)

    /// Sends `number` to the worker and the processes its specs started (its process group), as a
    /// terminal's Ctrl-C reaches a run's children; nothing once it has been waited for.
    func signal(_ number: Int32) {
        reaped.withLock { reaped in
            if !reaped { kill(-pid, number) }
        }
    }

    /// Waits for the worker to end; its wait status.
    func wait() -> Int32 {
        var status: Int32 = 0
        reaped.withLock { reaped in
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            reaped = true
        }
        close(output)
        return status
    }

    /// Reads the worker's messages on a thread of its own until its output ends, passing each (nil
    /// at the end) to `heard`.
    func readMessages(_ heard: @escaping @Sendable (WorkerMessage?) -> Void) {
        let output = output
        let thread = Thread {
            readLines(from: output) { line in
                // A line that is not a message (it never happens) is a worker that went wrong.
                heard((try? WorkerMessage(line: line)) ?? .fatal(message: "envscript: a worker of --jobs answered what is not a message: \(String(decoding: line.prefix(200), as: UTF8.self))", status: ExitStatus.failure))
                return true
            }
            heard(nil)
        }
        thread.name = "envscript.run.worker.\(pid)"
        thread.start()
    }
}
