import Foundation
import PackagePlugin

/// Generates typed tweak accessors while building a target, with `TweakAccessorGeneratorTool`.
///
/// Naming convention, under the target's folder (any depth; declare the files as resources or exclude them):
/// - `TweakAccessorConfig.json`: the configuration (`{"accessorName": "…", …}`); exactly one.
/// - the tweaks file: exactly one file whose name ends in `Tweaks.json` (`Tweaks.json`,
///   `LocalTweaks.json`, `DefaultTweaks.json`…).
///
/// The generated `<accessorName>.swift` and `<accessorName>+Constants.swift` are compiled into the target;
/// they are regenerated when either JSON file changes, and rewritten only when their contents change.
@main
struct TweakAccessorPlugin: BuildToolPlugin {
    static let configurationName = "TweakAccessorConfig.json"
    static let tweaksSuffix = "Tweaks.json"

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else {
            throw PluginError("TweakAccessorPlugin generates Swift; target '\(target.name)' is not a Swift target")
        }
        let files = Self.jsonFiles(of: module)
        let configurations = files.filter { $0.lastPathComponent == Self.configurationName }
        let tweaks = files.filter { $0.lastPathComponent.hasSuffix(Self.tweaksSuffix) }
        guard configurations.count == 1, let configuration = configurations.first else {
            throw PluginError(
                configurations.isEmpty
                    ? "target '\(target.name)' uses TweakAccessorPlugin but has no \(Self.configurationName)"
                    : "target '\(target.name)' has several \(Self.configurationName): \(Self.list(configurations))")
        }
        guard tweaks.count == 1, let tweaksFile = tweaks.first else {
            throw PluginError(
                tweaks.isEmpty
                    ? "target '\(target.name)' uses TweakAccessorPlugin but has no file named *\(Self.tweaksSuffix)"
                    : "target '\(target.name)' has several files named *\(Self.tweaksSuffix): \(Self.list(tweaks)); keep one")
        }

        let name = Self.accessorName(in: configuration) ?? "TweakAccessor"
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedSources", isDirectory: true)
        return [
            .buildCommand(
                displayName: "Generating tweak accessors \(name) from \(tweaksFile.lastPathComponent)",
                executable: try context.tool(named: "TweakAccessorGeneratorTool").url,
                arguments: ["--tweaks", tweaksFile.path, "--config", configuration.path, "--output", output.path],
                inputFiles: [tweaksFile, configuration],
                outputFiles: [
                    output.appendingPathComponent("\(name).swift"),
                    output.appendingPathComponent("\(name)+Constants.swift"),
                ])
        ]
    }

    /// The configuration and tweaks files under the target's folder, whether sources, resources or
    /// excluded, in path order.
    private static func jsonFiles(of module: SwiftSourceModuleTarget) -> [URL] {
        var found: [URL] = []
        let walker = FileManager.default.enumerator(
            at: module.directoryURL.resolvingSymlinksInPath(), includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        while let url = walker?.nextObject() as? URL {
            let name = url.lastPathComponent
            if name == configurationName || name.hasSuffix(tweaksSuffix) { found.append(url.standardizedFileURL) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The configuration's `accessorName`, which names the outputs; nil when it cannot be read, in which
    /// case the tool reports the problem.
    private static func accessorName(in configuration: URL) -> String? {
        guard let data = try? Data(contentsOf: configuration),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let name = object["accessorName"] as? String, !name.isEmpty, !name.contains("/")
        else { return nil }
        return name
    }

    private static func list(_ files: [URL]) -> String {
        files.map(\.path).joined(separator: ", ")
    }
}

/// A problem with the target's files, shown as the build's error.
struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
