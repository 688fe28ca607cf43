import Foundation
import PackagePlugin

/// Compiles a target's Lua files to bytecode while building it, with `LuaChunkCompiler`, so that the
/// program loads them without parsing their source at every start.
///
/// Every `*.lua` file of the target (declared as a resource; files the manifest excludes are left out)
/// is compiled with the chunk name `=[envscript]/<file name>` and its debug information. The generated
/// `PrecompiledLua.swift` declares `PrecompiledLua.chunks`, the bytecode keyed by file name, and
/// `PrecompiledLua.luaIdent`, the compiling library's identification; load a chunk with
/// `LuaState.load(precompiled:chunkName:)` when that matches `LuaState.libraryIdentification`. A file
/// that does not compile, or two files of one name, fail the build with a message naming the file.
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

    /// The target's Lua files (as resources or sources; not those the manifest excludes), in path order.
    private static func luaFiles(of module: SwiftSourceModuleTarget) -> [URL] {
        module.sourceFiles(withSuffix: "lua").map(\.url).sorted { $0.path < $1.path }
    }
}

/// A plugin failure, shown by SwiftPM as the build's error (plugins share no code: TweakAccessorPlugin
/// has its own).
struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
