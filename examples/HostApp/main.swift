// A small application that embeds the EnvScript runtime: it keeps its data in containers, loads the
// start-up script of the examples, and reads its flags and state from Swift. Its identifier,
// com.example.shop, is recorded in the home, so `envscript` commands on the same home use its files.
//
//     swift run ExampleHost HOME examples/envscript.lua
import AppState
import EnvScript
import Foundation
import Tweaks

// State declared AppState's way, with explicit ids: the host makes its application the current one,
// which the static accessors and the property wrappers use.
extension Application {
    /// Orders placed in the active container: stored in its preferences, so it follows the container.
    var ordersPlaced: StoredState<Int> { storedState(initial: 0, id: "orders_placed") }
    /// The last screen shown, in memory.
    var lastScreen: State<String> { state(initial: "home", id: "last_screen") }
}

/// A model of the app's, reading and writing that state through property wrappers.
struct CheckoutModel {
    @StoredState(\.ordersPlaced) var ordersPlaced
    @AppState(\.lastScreen) var lastScreen

    func placeOrder() {
        ordersPlaced += 1
        lastScreen = "receipt"
    }
}

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
    // The key of the hand-written decryptor comes from the host, on every Lua state the start-up script
    // runs in: the first, and each new one of a reload (`envscript reload --home HOME`).
    configuration.prepareLua = { lua in try lua.setGlobal("TWEAK_KEY", "ZGVtby1rZXktZm9yLWVudnNjcmlwdC1leGFtcGxlcyE=") }
    let host = try EnvScriptHost(configuration: configuration)
    defer { host.close() }
    // The start-up script opens tweaks.json beside itself.
    guard FileManager.default.changeCurrentDirectoryPath(startupScript.deletingLastPathComponent().path) else {
        throw HostError.scriptNotReadable(path: startupScript.path, reason: "its folder cannot be entered")
    }
    // Run as the start-up script: the home records it, so `envscript --home HOME` loads it from any folder.
    try host.runStartupScript(atPath: startupScript.lastPathComponent)

    // Flags: the stack, its priority and the decryptor come from the script.
    print("button colour: \(host.tweaks.value("checkout", "button_color", default: "none"))")
    print("api token: \(try host.tweaks.value("api", "token", as: String.self))")
    struct Gateway: Decodable { var merchant_id: String }
    print("payments gateway: \(try host.tweaks.value("payments", "gateway", as: Gateway.self).merchant_id)")

    // State and containers from Swift; the script's hooks run around the switches. State declared in
    // Lua holds Lua values (JSONValue) whatever side reads it.
    let session = try host.application.storedState("session.user", initial: JSONValue.string(""))
    print("session found: '\(session.value.stringValue ?? "")'")
    try session.setValue(.string("customer@example.com"))
    let qa = try host.containers.container(named: "QA") ?? host.containers.createNewContainer(name: "QA")
    try host.containers.activate(container: qa)
    print("in \(try host.containers.activeContainer.name): session '\(session.value.stringValue ?? "")'")
    try session.setValue(.string("qa@example.com"))
    try host.containers.activate(container: try host.containers.resolve("DEFAULT"))
    print("back in \(try host.containers.activeContainer.name): session '\(session.value.stringValue ?? "")'")
    print("switches seen by the script: \(try host.execute("return switches_seen").first?.intValue ?? 0)")

    // AppState-style state follows the container too, and a script reads it under the same ids.
    let checkout = CheckoutModel()
    checkout.placeOrder()
    checkout.placeOrder()
    try host.containers.activate(container: qa)
    checkout.placeOrder()
    print("orders placed in QA: \(checkout.ordersPlaced), last screen '\(checkout.lastScreen)'")
    try host.containers.activate(container: try host.containers.resolve("DEFAULT"))
    let seenByLua = try host.execute("return state.get('orders_placed')").first?.intValue ?? -1
    print("orders placed in DEFAULT: \(Application.storedState(\.ordersPlaced).value), as a script reads it: \(seenByLua)")
} catch {
    FileHandle.standardError.write(Data("ExampleHost: \(error)\n".utf8))
    exit(1)
}
