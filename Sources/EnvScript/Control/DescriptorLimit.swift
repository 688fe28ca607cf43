#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit of open file descriptors, as the servers see it.
///
/// The first server of a process raises the soft limit towards the hard one, to ``raisedLimit`` at most
/// (the soft limit is often 1024, which a thousand idle connections would use up — and a process out of
/// descriptors fails wherever it next opens one, in a file, a pipe or the runtime's own timers). The
/// raise is modest because the limit is the whole process's, an embedding app's and its children's:
/// code that still uses `select(2)` breaks on descriptors past 1024, and few need more than 4096.
/// ``ServerLimits`` then keeps each server's connections to a fraction of it.
enum DescriptorLimit {
    /// The soft limit after raising it, read once.
    static let current: Int = {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        let target = min(limit.rlim_max, rlim_t(raisedLimit))
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }()

    /// The most the soft limit is raised to.
    static let raisedLimit = 4096

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
