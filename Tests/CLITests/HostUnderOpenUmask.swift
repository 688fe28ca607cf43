import Foundation
import TestSupport
import Testing

/// An attached host (the `AttachedHostHelper` program) started under `umask 000`, the umask that lets
/// everything a program creates without an explicit mode be read and written by every user: what it
/// makes must still be private.
final class HostUnderOpenUmask {
    let folder: URL
    let process: ChildProcess

    /// Starts the host on `home` running `script`, with `environment` added (`TMPDIR`, say), and waits
    /// until it is ready or has ended.
    init(_ scratch: Scratch, home: String, script: String, environment: [String: String] = [:]) throws {
        folder = scratch.url.appendingPathComponent("host-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let scriptPath = folder.appendingPathComponent("host.lua").path
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let helper = try EnvScriptProcess.binary(named: "AttachedHostHelper").path
        process = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "umask 000; exec \"$@\"", "sh", helper, home, scriptPath, folder.path],
            in: scratch.url, environment: EnvScriptProcess.environment(environment))
        let ready = folder.appendingPathComponent("ready").path
        let deadline = Date().addingTimeInterval(60)
        while process.process.isRunning, !FileManager.default.fileExists(atPath: ready), Date() < deadline { usleep(10_000) }
    }

    /// Whether it got ready (and still runs).
    var isReady: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("ready").path) }

    /// Lets the host end and waits for it.
    @discardableResult
    func stop() -> ChildProcess.Outcome {
        FileManager.default.createFile(atPath: folder.appendingPathComponent("stop").path, contents: nil)
        return process.wait()
    }
}
