import Foundation
import PackagePlugin

/// Compiles a target's Lua files to bytecode while building it, with `LuaChunkCompiler`, so that the
/// program loads them without parsing their source at every start.
///
/// Every `*.lua` file under the target's folder (any depth; declare them as resources or exclude them)
/// is compiled with the chunk name `=[envscript]/<file name>` and its debug information. The generated
/// `PrecompiledLua.swift` declares `PrecompiledLua.chunks`, the bytecode keyed by file name; load it
/// with `LuaState.load(precompiled:chunkName:)`. A file that does not compile fails the build with
/// Lua's message, naming the file and line.
@main
struct LuaBytecodePlugin: BuildToolPlugin {
    /// What each chunk name starts with: the prefix tracebacks use to tell envscript's own frames.
    static let chunkPrefix = "[envscript]/"

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else {
            throw PluginError("LuaBytecodePlugin generates Swift; target '\(target.name)' is not a Swift target")
        }
        let files = Self.luaFiles(of: module)
        guard !files.isEmpty else {
            throw PluginError("target '\(target.name)' uses LuaBytecodePlugin but has no .lua file")
        }
        let output = context.pluginWorkDirectoryURL
            .appendingPathComponent("GeneratedSources", isDirectory: true)
            .appendingPathComponent("PrecompiledLua.swift")
        return [
            .buildCommand(
                displayName: "Compiling the Lua files of \(target.name) to bytecode",
                executable: try context.tool(named: "LuaChunkCompiler").url,
                arguments: [output.path, Self.chunkPrefix] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output])
        ]
    }

    /// The Lua files under the target's folder, in path order.
    private static func luaFiles(of module: SwiftSourceModuleTarget) -> [URL] {
        var found: [URL] = []
        let walker = FileManager.default.enumerator(
            at: module.directoryURL.resolvingSymlinksInPath(), includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "lua" { found.append(url.standardizedFileURL) }
        }
        return found.sorted { $0.path < $1.path }
    }
}

/// A plugin failure, shown by SwiftPM as the build's error (plugins share no code: TweakAccessorPlugin
/// has its own).
struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
