import EnvScript
import LuaTypeGeneration
import Scenarios
import Foundation
import TestSupport
import Testing

/// The LuaLS definitions cover exactly the functions the host modules register, and the copy kept
/// in the repository's `types/` folder is up to date.
@Suite struct TypeDefinitionTests {
    /// A host over a fresh temporary home, with the modules `envscript run` adds.
    func withHost<Result>(_ body: (EnvScriptHost) throws -> Result) throws -> Result {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let host = try EnvScriptHost(configuration: HostConfiguration(
            home: folder.url.appendingPathComponent("home"), appID: "tests", attachesToHome: false))
        defer { host.close() }
        _ = try ScenarioRunner(host: host)
        return try body(host)
    }

    func definitions() throws -> [String: String] {
        try withHost { try LuaTypeDefinitions.files(for: $0) }
    }

    @Test func everyModuleFunctionIsDocumented() throws {
        let (files, modules) = try withHost { (try LuaTypeDefinitions.files(for: $0), $0.modules) }
        for module in modules {
            let text = try #require(files["\(module.name).lua"])
            #expect(text.hasPrefix("---@meta"))
            for member in module.members {
                #expect(text.contains("function \(module.name).\(member.name)("), "\(module.name).\(member.name) is missing")
            }
        }
        #expect(files["scenarios.lua"]?.contains("function describe(name, body) end") == true)
        let luarc = try #require(files[".luarc.json"]).data(using: .utf8)!
        let settings = try #require(try JSONSerialization.jsonObject(with: luarc) as? [String: Any])
        #expect(settings["runtime.version"] as? String == "Lua 5.4")
    }

    @Test func theCommittedDefinitionsMatchTheModules() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("types")
        for (name, text) in try definitions() {
            let committed = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(committed == text, "types/\(name) is out of date: run `envscript types --output types`")
        }
    }
}
