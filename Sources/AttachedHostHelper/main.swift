// A child process for the tests of many processes on one home: a running application that embeds
// EnvScriptHost, attached to its home, idle between calls like a real app (its Lua state unlocked).
//
//   AttachedHostHelper <home> <script> <folder>
//
// Opens a host over <home> (attached, with Lua's io library so hooks can leave marks), runs <script>,
// creates <folder>/ready, then waits until <folder>/stop exists; then calls the Lua global `on_stop`
// if the script defined one, closes the host and exits 0. Failures print to standard error, exit 1.
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
    let host = try EnvScriptHost(configuration: HostConfiguration(
        home: URL(fileURLWithPath: arguments[1]),
        lua: LuaOptions(libraries: .io, scriptRoots: [folder.path])))
    try host.runScript(atPath: arguments[2])
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
