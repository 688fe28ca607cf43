// A small application that embeds the EnvScript runtime: it keeps its data in containers, loads the
// start-up script of the examples, and reads its flags and state from Swift. Its identifier,
// com.example.shop, is recorded in the home, so `envscript` commands on the same home use its files.
//
//     swift run ExampleHost HOME examples/envscript.lua
import EnvScript
import Foundation
import Tweaks

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ExampleHost HOME START-UP-SCRIPT\n".utf8))
    exit(2)
}
let home = URL(fileURLWithPath: arguments[1])
let startupScript = URL(fileURLWithPath: arguments[2])

do {
    var configuration = HostConfiguration(home: home, appID: "com.example.shop")
    // The tweak cipher's keys may also come from the host (a keychain, a secret store): here from the
    // environment when set, as SHOP_TWEAK_KEYS="ID BASE64"; the script's key file adds its own.
    configuration.tweakKeys = .environment("SHOP_TWEAK_KEYS")
    let host = try EnvScriptHost(configuration: configuration)
    defer { host.close() }
    // The start-up script opens tweaks.json beside itself; the key of secret flags comes from the host.
    guard FileManager.default.changeCurrentDirectoryPath(startupScript.deletingLastPathComponent().path) else {
        throw HostError.scriptNotReadable(path: startupScript.path, reason: "its folder cannot be entered")
    }
    try host.lock.withLock { try host.lua.setGlobal("TWEAK_KEY", "ZGVtby1rZXktZm9yLWVudnNjcmlwdC1leGFtcGxlcyE=") }
    try host.runScript(atPath: startupScript.lastPathComponent)

    // Flags: the stack, its priority and the decryptor come from the script.
    print("button colour: \(host.tweaks.value("checkout", "button_color", default: "none"))")
    print("api token: \(try host.tweaks.value("api", "token", as: String.self))")
    struct Gateway: Decodable { var merchant_id: String }
    print("payments gateway: \(try host.tweaks.value("payments", "gateway", as: Gateway.self).merchant_id)")

    // State and containers from Swift; the script's hooks run around the switches. State declared in
    // Lua holds Lua values (ScriptValue) whatever side reads it.
    let session = try host.application.storedState("session.user", initial: ScriptValue.string(""))
    print("session found: '\(try session.value.stringValue ?? "")'")
    try session.setValue(.string("customer@example.com"))
    let qa = try host.containers.container(named: "QA") ?? host.containers.createNewContainer(name: "QA")
    try host.containers.activate(container: qa)
    print("in \(try host.containers.activeContainer.name): session '\(try session.value.stringValue ?? "")'")
    try session.setValue(.string("qa@example.com"))
    try host.containers.activate(container: try host.containers.resolve("DEFAULT"))
    print("back in \(try host.containers.activeContainer.name): session '\(try session.value.stringValue ?? "")'")
    print("switches seen by the script: \(try host.execute("return switches_seen").first?.intValue ?? 0)")
} catch {
    FileHandle.standardError.write(Data("ExampleHost: \(error)\n".utf8))
    exit(1)
}
