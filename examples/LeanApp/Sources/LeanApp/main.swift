// A lean app: a host over a home given as the first argument, a start-up script with a hook and a
// flag, a switch, and the flag read from Swift. Prints what it saw, one fact a line. Given a second
// argument, a file, it then stays open (attached to the home) until that file exists.
import EnvScript
import Foundation
import Tweaks

guard (2...3).contains(CommandLine.arguments.count) else {
    FileHandle.standardError.write(Data("usage: LeanApp HOME [STOP_FILE]\n".utf8))
    exit(2)
}
/// Writes a line at once (standard output may be a pipe that another process reads while this one waits).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let home = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
do {
    let host = try EnvScriptHost(configuration: HostConfiguration(home: home, appID: "com.example.lean"))
    defer { host.close() }
    try host.execute("""
        tweak.set('checkout', 'color', 'blue')
        container.on_did_change(function(to) print('switched to ' .. to.name) end)
        if not container.get('Staging') then container.create('Staging') end
        """, name: "startup")
    try host.execute("""
        container.activate(container.active().name == 'Staging' and 'DEFAULT' or 'Staging')
        tweak.set('checkout', 'color', 'red')
        """, name: "switch")
    say("color in Staging: \(host.tweaks.value("checkout", "color", default: "none"))")
    let remote = try host.execute("return select(2, pcall(tweak.remote, {url = 'http://127.0.0.1:1/t.json'}))", name: "remote")
    say("tweak.remote: \(remote.first?.stringValue ?? "?")")
    say("attached without a control socket: \(host.attachedHostRecord.map { !$0.hasControlSocket } ?? false)")
    if CommandLine.arguments.count == 3 {
        while !FileManager.default.fileExists(atPath: CommandLine.arguments[2]) { usleep(20_000) }
    }
} catch {
    FileHandle.standardError.write(Data("LeanApp: \(error)\n".utf8))
    exit(1)
}
