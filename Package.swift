// swift-tools-version:6.1
import PackageDescription

/// EnvScript: switchable application environments ("containers") with policies written in Lua 5.4.
///
/// Layers, each importing only modules of the layers below it (scripts/check-layering, run first by
/// scripts/test, holds the code to this, and every target to importing only what it declares here):
///   7. EnvScriptCLI, the `envscript` tool;
///   6. EnvScriptPanel, the web panel;
///   5. Scenarios (`envscript run`'s runner), LuaTypeGeneration, TweakAccessorGeneration;
///   4. EnvScript, the runtime: a host and its Lua modules, over EnvScriptOperations (the operations Lua,
///      the control API and the CLI share, with their views and values) and, with the `Control` trait,
///      EnvScriptControl (the control socket, the part in other processes' switches, the OFREP listener);
///   3. LuaBridge (Swift and Lua), RemoteTweaks (flags over HTTP), ContainerSharing (archives);
///   2. the engines Containers, Tweaks and AppState: plain Swift, no Lua, no networking;
///   1. Preferences; 0. Locking, CFileSync, CLua, CLuaSupport.
/// A front-end (CLI, panel) goes through a host for whatever a running app takes part in (switches, flags,
/// state) and reaches a lower layer directly where the runtime has nothing to add: a home's doctor, the
/// archive format, checking a tweak file, the Lua type generator. Only RemoteTweaks, EnvScriptControl and
/// the front-ends bring networking (AsyncHTTPClient, Hummingbird).
///
/// The runtime's parts that bring networking or archives are package traits (SE-0450), all on by default:
/// an app that adds the package with `traits: []` gets a host with Lua, containers and hooks, flags and
/// state, and builds none of SwiftNIO, Hummingbird, AsyncHTTPClient or ZIPFoundation.
var package = Package(
    name: "EnvScript",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "envscript", targets: ["EnvScriptCLI"]),
        .library(name: "EnvScript", targets: ["EnvScript"]),
        .library(name: "EnvScriptPanel", targets: ["EnvScriptPanel"]),
        .library(name: "LuaBridge", targets: ["LuaBridge"]),
        .library(name: "Containers", targets: ["Containers"]),
        .library(name: "ContainerSharing", targets: ["ContainerSharing"]),
        .library(name: "Tweaks", targets: ["Tweaks"]),
        .library(name: "RemoteTweaks", targets: ["RemoteTweaks"]),
        .library(name: "AppState", targets: ["AppState"]),
        .library(name: "JSONValues", targets: ["JSONValues"]),
        .plugin(name: "TweakAccessorPlugin", targets: ["TweakAccessorPlugin"]),
    ],
    traits: [
        .trait(
            name: "Control",
            description: "A host's control socket (other processes, the command line among them, make it take part in their switches; the panel follows it) and its OFREP listener (HostConfiguration.ofrepListener). Brings SwiftNIO, Hummingbird and AsyncHTTPClient."),
        .trait(
            name: "RemoteFlags",
            description: "Flags fetched over HTTP: tweak.remote and tweak.ofrep, RemoteTweaks' providers in a host. Brings AsyncHTTPClient."),
        .trait(
            name: "Sharing",
            description: "Containers as zip archives: container.export, container.import and container.diff. Brings ZIPFoundation."),
        .default(enabledTraits: ["Control", "RemoteFlags", "Sharing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // NIOHTTPTypes: the request and answer parts the servers' own channel handlers see (the URL as
        // Hummingbird names it, so the two are one dependency).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // `swift package generate-documentation` (scripts/docs): the DocC catalogs under Sources/*/*.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Lua 5.4 from the system (Debian: liblua5.4-dev), found with pkg-config.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        // The only code that calls Lua functions which may raise (longjmp).
        .target(name: "CLuaSupport", dependencies: ["CLua"]),
        .target(name: "LuaBridge", dependencies: ["CLua", "CLuaSupport", "Locking"]),

        // A lock ThreadSanitizer understands, shared by every module, and the one atomic file writer.
        .target(name: "Locking"),
        // syncfs(2), which Swift's Glibc module does not show.
        .target(name: "CFileSync"),

        // The one value type for JSON-shaped data (flags, contexts, rules, state, the wire) and the strict
        // JSON reader and exact writer every part uses.
        .target(name: "JSONValues"),

        // Engines: plain Swift, no Lua.
        .target(name: "Containers", dependencies: ["Locking", "CFileSync"]),
        .target(name: "Preferences", dependencies: ["JSONValues", "Locking"]),
        .target(name: "Tweaks", dependencies: ["JSONValues", "Preferences", "Locking", .product(name: "Crypto", package: "swift-crypto")]),
        // Tweak providers fetched over HTTP: the one engine with an HTTP client (AsyncHTTPClient, so SwiftNIO
        // and its TLS), kept apart so that an app, a tool or a fuzz build using Tweaks alone builds none of it.
        .target(
            name: "RemoteTweaks",
            dependencies: [
                "Tweaks", "Preferences", "Locking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "AppState",
            dependencies: [
                "JSONValues", "Preferences", "Locking", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Containers as portable things: export to a zip archive, import, diff.
        .target(
            name: "ContainerSharing",
            dependencies: [
                "JSONValues", "Containers", "Preferences",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // Typed tweak accessors: the generator, the tool the build plugin runs, and the plugin.
        .target(name: "TweakAccessorGeneration", dependencies: ["Tweaks"]),
        .executableTarget(
            name: "TweakAccessorGeneratorTool",
            dependencies: [
                "TweakAccessorGeneration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .plugin(name: "TweakAccessorPlugin", capability: .buildTool(), dependencies: ["TweakAccessorGeneratorTool"]),
        // Lua files compiled to bytecode at build time (the scenario prelude loads without parsing).
        .executableTarget(name: "LuaChunkCompiler", dependencies: ["CLua"]),
        .plugin(name: "LuaBytecodePlugin", capability: .buildTool(), dependencies: ["LuaChunkCompiler"]),

        // The operations every front door shares (Lua, the control API, the command line), written once over
        // the engines, with the views and values they answer with.
        .target(
            name: "EnvScriptOperations",
            dependencies: [
                "JSONValues", "LuaBridge", "Containers", "Preferences", "Tweaks", "AppState", "Locking",
                .target(name: "ContainerSharing", condition: .when(traits: ["Sharing"])),
                .target(name: "RemoteTweaks", condition: .when(traits: ["RemoteFlags"])),
            ]
        ),
        // The control plane (the `Control` trait): a host's control socket, its part in other processes'
        // switches, its OFREP listener, and the routes the panel serves too. The one target with an HTTP server.
        .target(
            name: "EnvScriptControl",
            dependencies: [
                "EnvScriptOperations", "JSONValues", "LuaBridge", "Containers", "Preferences", "Tweaks", "AppState", "Locking",
                .product(name: "Logging", package: "swift-log"),
                .target(name: "ContainerSharing", condition: .when(traits: ["Sharing"])),
                .target(name: "RemoteTweaks", condition: .when(traits: ["RemoteFlags"])),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),
        // The runtime that wires the engines to Lua, and the command-line tool.
        .target(
            name: "EnvScript",
            dependencies: [
                "EnvScriptOperations", "JSONValues", "LuaBridge", "Containers", "Preferences", "Tweaks", "AppState", "Locking",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .target(name: "ContainerSharing", condition: .when(traits: ["Sharing"])),
                .target(name: "RemoteTweaks", condition: .when(traits: ["RemoteFlags"])),
                .target(name: "EnvScriptControl", condition: .when(traits: ["Control"])),
            ]
        ),
        // Command-line tooling over the runtime: QA scenarios and their reports, LuaLS type definitions.
        .target(
            name: "EnvScriptPanel",
            dependencies: [
                "EnvScript", "EnvScriptControl", "EnvScriptOperations", "Scenarios", "Containers", "Locking",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [
                .embedInCode("Resources/index.html"),
                .embedInCode("Resources/panel.css"),
                .embedInCode("Resources/panel.js"),
            ]
        ),
        .target(
            name: "Scenarios",
            dependencies: ["EnvScript", "LuaBridge", "Locking"],
            resources: [
                .embedInCode("Lua/say.lua"), .embedInCode("Lua/state.lua"), .embedInCode("Lua/compare.lua"),
                .embedInCode("Lua/util.lua"), .embedInCode("Lua/chains.lua"), .embedInCode("Lua/luassert.lua"),
                .embedInCode("Lua/matchers.lua"), .embedInCode("Lua/format.lua"), .embedInCode("Lua/spies.lua"),
                .embedInCode("Lua/messages.lua"), .embedInCode("Lua/assertions.lua"), .embedInCode("Lua/busted.lua"),
                .embedInCode("Lua/repl.lua"),
            ],
            plugins: ["LuaBytecodePlugin"]
        ),
        .target(name: "LuaTypeGeneration", dependencies: ["EnvScript", "LuaBridge"]),
        // The REPL's line editor: libedit (Debian: libedit-dev) with fixed signatures Swift can call.
        .target(name: "CLineEditor", linkerSettings: [.linkedLibrary("edit")]),
        // `envscript run`'s Ctrl-C: a signal handler that records the moment a signal arrives.
        .target(name: "CSignalArrival"),
        .executableTarget(
            name: "EnvScriptCLI",
            dependencies: [
                "EnvScript", "EnvScriptOperations", "EnvScriptControl", "EnvScriptPanel", "Containers", "ContainerSharing", "Tweaks",
                "TweakAccessorGeneration", "Scenarios",
                "LuaTypeGeneration", "CLineEditor", "CSignalArrival", "Locking", "LuaBridge",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // examples/HostApp: a small application embedding the runtime (run by CLITests).
        .executableTarget(name: "ExampleHost", dependencies: ["EnvScript", "Tweaks", "AppState"], path: "examples/HostApp"),

        // Benchmarks (scripts/bench): the bridge against plain C doing the same work.
        .target(name: "LuaBenchBaseline", dependencies: ["CLua"]),
        .executableTarget(
            name: "EnvScriptBench",
            dependencies: [
                "LuaBridge", "LuaBenchBaseline", "EnvScript", "Containers", "ContainerSharing", "Tweaks", "Preferences", "AppState",
                "Locking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        // Helpers every test target shares: temporary folders, counters, child processes with a timeout.
        .target(
            name: "TestSupport",
            dependencies: ["Preferences", "Locking", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "LuaBridgeTests",
            dependencies: [
                "TestSupport", "LuaBridge", "CLua", "CLuaSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // A child process for ContainersTests' crash tests: switches a home and dies where told.
        .executableTarget(name: "ContainersCrashHelper", dependencies: ["Containers", "Locking"]),
        .testTarget(name: "ContainersTests", dependencies: ["TestSupport", "Containers", "Locking", "ContainersCrashHelper"]),
        .testTarget(
            name: "ContainerSharingTests",
            dependencies: [
                "TestSupport", "ContainerSharing", "Containers", "Preferences", "Tweaks",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "PreferencesTests",
            dependencies: ["TestSupport", "Preferences", "Locking", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "TweaksTests",
            dependencies: ["TestSupport", "Tweaks", "Preferences", "Locking", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(name: "RemoteTweaksTests", dependencies: ["TestSupport", "RemoteTweaks", "Tweaks", "Preferences", "Locking"]),
        .testTarget(name: "AppStateTests", dependencies: ["TestSupport", "AppState", "Preferences", "Locking"]),
        // AppState's README usage — declarations, wrappers, slices, a dependency and its override — with
        // ids added, over a real host, and the same state read from Lua.
        .testTarget(
            name: "AppStateUsageTests",
            dependencies: [
                "TestSupport", "AppState", "Locking", "EnvScript", "Containers", "LuaBridge", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "EnvScriptTests",
            dependencies: [
                "TestSupport", "EnvScript", "EnvScriptOperations", "EnvScriptControl", "JSONValues", "AppState", "Tweaks", "Containers", "Preferences",
                "Locking", "LuaBridge",
                // OFREPProviderTests: the OFREP provider itself, beside tweak.ofrep.
                "RemoteTweaks",
                .product(name: "Crypto", package: "swift-crypto"),
                // ControlAPITests: a real server on a Unix socket and a real client (its futures too, to
                // time requests off Swift's pool).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "PanelTests",
            dependencies: [
                "TestSupport", "EnvScript", "EnvScriptPanel", "AttachedHostHelper", "Locking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // A running application attached to its home, for the tests of many processes on one home.
        .executableTarget(name: "AttachedHostHelper", dependencies: ["EnvScript", "LuaBridge"]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "TestSupport", "EnvScriptCLI", "ExampleHost", "AttachedHostHelper", "Locking", "EnvScript", "Scenarios",
                "LuaTypeGeneration", "LuaBridge",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Accessors generated by TweakAccessorPlugin at build time, used by TweakAccessorGenerationTests.
        .target(
            name: "GeneratedAccessorsFixture",
            dependencies: ["Tweaks"],
            path: "Tests/GeneratedAccessorsFixture",
            exclude: ["TweakAccessorConfig.json"],
            resources: [.copy("Tweaks.json")],
            plugins: ["TweakAccessorPlugin"]
        ),
        .testTarget(
            name: "TweakAccessorGenerationTests",
            dependencies: ["TestSupport", "TweakAccessorGeneration", "Tweaks", "GeneratedAccessorsFixture"]
        ),
    ]
)

// scripts/fuzz: the libFuzzer targets, built only when asked (they have no `main` of their own; libFuzzer's
// is linked in by `-sanitize=fuzzer`).
if Context.environment["ENVSCRIPT_FUZZ"] == "1" {
    // The build plugin's tool would be linked with libFuzzer's `main` beside its own: leave it out.
    package.products.removeAll { $0.name == "TweakAccessorPlugin" }
    package.targets.removeAll { ["TweakAccessorPlugin", "GeneratedAccessorsFixture", "TweakAccessorGenerationTests"].contains($0.name) }
    // Likewise LuaBytecodePlugin's tool. No fuzz target builds Scenarios, the one target that uses it.
    package.targets.removeAll { ["LuaBytecodePlugin", "LuaChunkCompiler"].contains($0.name) }
    for target in package.targets where target.name == "Scenarios" { target.plugins = nil }
    package.targets.append(.executableTarget(
        name: "EnvScriptFuzz",
        dependencies: ["JSONValues", "LuaBridge", "Containers", "Preferences", "Tweaks"],
        path: "Fuzz/EnvScriptFuzz"
    ))
}

// Only the named test targets (with what they depend on): scripts/test-asan and scripts/test-threads, so a
// sanitizer build of a few suites does not build the whole package again; empty (no test target at all) for
// scripts/build-release and scripts/docs. Without TweakAccessorGenerationTests its fixture goes too, and with
// it the only use of TweakAccessorPlugin: SwiftPM builds a used plugin's tool (and the tool's dependencies,
// swift-crypto among them) for the host before any build, whatever the products asked for.
if let only = Context.environment["ENVSCRIPT_ONLY_TESTS"] {
    let kept = Set(only.split(separator: ",").map(String.init))
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
    if !kept.contains("TweakAccessorGenerationTests") {
        package.targets.removeAll { $0.name == "GeneratedAccessorsFixture" }
    }
}

// No dependency leaks through a library's interface: an import is internal unless a file says
// `public import` (SE-0409), where a public declaration shows the module's types.
for target in package.targets where target.type == .regular {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
