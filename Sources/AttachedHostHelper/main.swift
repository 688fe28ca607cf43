// A child process for the tests of many processes on one home: a running application that embeds
// EnvScriptHost, attached to its home, idle between calls like a real app (its Lua state unlocked).
//
//   AttachedHostHelper <home> <script> <folder>
//
// Opens a host over <home> (attached, with Lua's io library so hooks can leave marks), runs <script>,
// creates <folder>/ready, then waits until <folder>/stop exists; then calls the Lua global `on_stop`
// if the script defined one, closes the host and exits 0. Failures print to standard error, exit 1.
// With ENVSCRIPT_HELPER_STARTUP set, <script> runs as a start-up script. With ENVSCRIPT_HELPER_OFREP_ORIGIN set, the host also serves OFREP on a TCP port of 127.0.0.1 for
// pages of that origin (HostConfiguration.ofrepListener), and writes "<port> <token>" to <folder>/ofrep
// before <folder>/ready.
import EnvScript
import Foundation
import LuaBridge

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: AttachedHostHelper HOME SCRIPT FOLDER\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[3])

do {
    var configuration = HostConfiguration(
        home: URL(fileURLWithPath: arguments[1]), lua: LuaOptions(libraries: .io, scriptRoots: [folder.path]))
    let ofrepOrigin = ProcessInfo.processInfo.environment["ENVSCRIPT_HELPER_OFREP_ORIGIN"]
    if let ofrepOrigin {
        configuration.ofrepListener = OFREPListener(
            token: OFREPListener.randomToken(), allowedOrigins: try AllowedOrigins([ofrepOrigin]))
    }
    let host = try EnvScriptHost(configuration: configuration)
    // As an application's start-up script (one `envscript reload` runs again) with ENVSCRIPT_HELPER_STARTUP set.
    if ProcessInfo.processInfo.environment["ENVSCRIPT_HELPER_STARTUP"] != nil {
        try host.runStartupScript(atPath: arguments[2])
    } else {
        try host.runScript(atPath: arguments[2])
    }
    if let listener = configuration.ofrepListener, let port = host.ofrepListenerPort {
        try "\(port) \(listener.token)\n".write(to: folder.appendingPathComponent("ofrep"), atomically: true, encoding: .utf8)
    }
    FileManager.default.createFile(atPath: folder.appendingPathComponent("ready").path, contents: nil)
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("stop").path) {
        usleep(20_000)
    }
    try host.execute("if on_stop then on_stop() end", name: "stop")
    host.close()
} catch {
    FileHandle.standardError.write(Data("AttachedHostHelper: \(error)\n".utf8))
    exit(1)
}
