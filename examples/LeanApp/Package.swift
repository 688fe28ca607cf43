// swift-tools-version:6.1
import PackageDescription

/// An app that embeds EnvScript's lean runtime: the package added with its traits off, so that the host
/// it opens has Lua, containers and hooks, flags and state, and the build compiles none of SwiftNIO,
/// Hummingbird, AsyncHTTPClient or ZIPFoundation. `scripts/test-lean` builds it from clean and checks that.
let package = Package(
    name: "LeanApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "EnvScript", path: "../..", traits: []),
    ],
    targets: [
        .executableTarget(
            name: "LeanApp",
            dependencies: [
                .product(name: "EnvScript", package: "EnvScript"),
                .product(name: "Tweaks", package: "EnvScript"),
            ]
        ),
    ]
)
