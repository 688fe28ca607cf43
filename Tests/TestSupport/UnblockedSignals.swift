#if canImport(Glibc)
package import Glibc
#endif

/// Runs `body` (which starts a process) with `signals` unblocked in the calling thread, then restores
/// the thread's mask: a process inherits the mask of the thread that starts it, and a test's thread
/// blocks SIGINT and SIGTERM, so a child started from it would not hear a Ctrl-C as one started from a
/// shell does.
package func withSignalsUnblocked<Result>(_ signals: [Int32] = [SIGINT, SIGTERM], _ body: () throws -> Result) rethrows -> Result {
    var unblocked = sigset_t()
    var previous = sigset_t()
    sigemptyset(&unblocked)
    for signal in signals { sigaddset(&unblocked, signal) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
}
