package import Foundation

/// Adds to `actions` the closing, in the child, of every descriptor above standard error.
///
/// A process spawned by a test must not keep the test's descriptors: a tmux server lives on after the
/// test and would hold the test's sockets open — a control-API client it inherited stays connected to
/// its server however the test closes it. NIO does not mark its sockets close-on-exec, so this is the
/// only place to stop that. glibc (2.34 and later) has `posix_spawn_file_actions_addclosefrom_np`, which
/// Swift's Glibc module does not declare: it is looked up by name.
package func closeInheritedDescriptors(in actions: inout posix_spawn_file_actions_t) throws {
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    guard let symbol = dlsym(nil /* RTLD_DEFAULT */, "posix_spawn_file_actions_addclosefrom_np") else {
        throw DescriptorClosingError(description: "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later has)")
    }
    let addCloseFrom = unsafeBitCast(symbol, to: AddCloseFrom.self)
    let failure = addCloseFrom(&actions, 3)
    guard failure == 0 else {
        throw DescriptorClosingError(description: "posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(failure)))")
    }
}

/// Why the descriptors of a child to be spawned could not be closed.
package struct DescriptorClosingError: Error, CustomStringConvertible {
    package let description: String
}
