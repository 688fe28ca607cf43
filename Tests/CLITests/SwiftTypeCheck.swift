import Foundation
import TestSupport
import Testing

/// `swiftc -typecheck` of one source file against this package's debug build, as a dependent app's code
/// would be compiled: its Swift modules from the build products folder, the module maps of every C
/// module they import (the package's, SwiftPM's generated ones, those of the checked-out dependencies),
/// Swift 6 language mode.
enum SwiftTypeCheck {
    /// The compiler's verdict on `source`: exit status 0 when it compiles; the diagnostics otherwise.
    static func run(_ source: URL) throws -> ChildProcess.Outcome {
        let products = try BuiltBinary.url(named: "envscript").deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "ReadersApp", "-I", products.appendingPathComponent("Modules").path]
        for map in try moduleMaps(products: products, packageRoot: packageRoot) {
            arguments += ["-Xcc", "-fmodule-map-file=\(map.path)", "-Xcc", "-I\(map.deletingLastPathComponent().path)"]
        }
        for flag in try luaIncludeFlags() { arguments += ["-Xcc", flag] }
        arguments.append(source.path)
        return try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments, in: packageRoot,
            environment: ProcessInfo.processInfo.environment, timeout: 120)
    }

    /// SwiftPM's generated maps (`<Target>.build/module.modulemap`, not those of the plugin tools' host
    /// build), and the maps the C targets of this package and its dependencies bring themselves.
    private static func moduleMaps(products: URL, packageRoot: URL) throws -> [URL] {
        let files = FileManager.default
        var maps = try files.contentsOfDirectory(atPath: products.path)
            .filter { $0.hasSuffix(".build") && !$0.hasSuffix("-tool.build") }
            .map { products.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
            .filter { files.fileExists(atPath: $0.path) }
        let sourceFolders = [packageRoot.appendingPathComponent("Sources")]
            + (try files.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(".build/checkouts").path))
                .map { packageRoot.appendingPathComponent(".build/checkouts/\($0)/Sources") }
        for folder in sourceFolders {
            guard let walker = files.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in walker where file.lastPathComponent == "module.modulemap" { maps.append(file) }
        }
        return maps
    }

    /// Where Lua's headers are (`pkg-config --cflags lua5.4`), for the CLua module's map.
    private static func luaIncludeFlags() throws -> [String] {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["pkg-config", "--cflags", "lua5.4"], in: URL(fileURLWithPath: "/"),
            environment: ProcessInfo.processInfo.environment, timeout: 30)
        return outcome.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}
