import ArgumentParser
import EnvScript
import Scenarios
import LuaTypeGeneration
import Foundation

/// `envscript types --output DIR`: LuaLS definitions of the host modules and scenario globals.
struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Write LuaLS definition files for the host modules and the scenario globals.",
        discussion: "Writes one ---@meta file per module, classes.lua, scenarios.lua and a .luarc.json; open DIR (or add it to workspace.library) in an editor with the Lua language server.")

    @Option(help: ArgumentHelp("The folder to write into.", valueName: "dir"))
    var output: String

    func run() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-types-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        do {
            let host = try EnvScriptHost(configuration: HostConfiguration(home: scratch.appendingPathComponent("home")))
            defer { host.close() }
            _ = try ScenarioRunner(host: host)
            let written = try LuaTypeDefinitions.write(for: host, to: URL(fileURLWithPath: output, isDirectory: true))
            for name in written { print("wrote \((output as NSString).appendingPathComponent(name))") }
        } catch {
            throw CommandFailure.failure(ErrorReport.fileProblem(error) ?? "\(error)")
        }
    }
}
