#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit of open file descriptors, as the servers see it.
///
/// The first server of a process raises the soft limit to the hard one (as Go's runtime and the JVM
/// do): the soft limit is often 1024, which a thousand idle connections would use up — and a process
/// out of descriptors fails wherever it next opens one, in a file, a pipe or the runtime's own timers.
/// ``ServerLimits`` then keeps each server's connections to a fraction of what is left.
enum DescriptorLimit {
    /// The soft limit after raising it, read once.
    static let current: Int = {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }()

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
