package import EnvScript
package import Foundation
import LuaBridge

/// LuaLS definition files (`---@meta`) for the host modules and the scenario globals, and a
/// `.luarc.json` that points the language server at them.
package enum LuaTypeDefinitions {
    /// The modules and their documentation disagree: a function is undocumented, or documented but gone.
    package struct DriftError: Error, CustomStringConvertible {
        package var problems: [String]
        package var description: String {
            "the Lua type definitions no longer match the host modules:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        }
    }

    /// The files, by name: one `<module>.lua` per host module, `scenarios.lua`, `classes.lua` and `.luarc.json`.
    ///
    /// - Throws: ``DriftError`` when the modules of `host` and the documentation disagree.
    package static func files(for host: EnvScriptHost) throws -> [String: String] {
        var problems: [String] = []
        var files: [String: String] = [:]
        let registered = Set(host.modules.map(\.name))
        for name in ModuleDocumentation.modules.keys.sorted() where !registered.contains(name) {
            problems.append("module '\(name)' is documented but not registered")
        }
        for module in host.modules {
            guard let documentation = ModuleDocumentation.modules[module.name] else {
                problems.append("module '\(module.name)' has no documentation")
                continue
            }
            var text = "---@meta \(module.name)\n-- \(documentation.summary)\n\n---@class \(module.name)\n\(module.name) = {}\n"
            var seen: Set<String> = []
            for member in module.members {
                guard case .function = member.value else { continue }
                seen.insert(member.name)
                guard let annotations = documentation.functions[member.name] else {
                    problems.append("\(module.name).\(member.name) has no documentation")
                    continue
                }
                text += "\n\(annotations)\nfunction \(module.name).\(member.name)(\(parameters(in: annotations).joined(separator: ", "))) end\n"
            }
            for name in documentation.functions.keys.sorted() where !seen.contains(name) {
                problems.append("\(module.name).\(name) is documented but not registered")
            }
            text += "\nreturn \(module.name)\n"
            files["\(module.name).lua"] = text
        }
        for global in ModuleDocumentation.scenarioGlobals where try host.lua.global(global) == .nil {
            problems.append("scenario global '\(global)' is documented but not defined (is the scenario runner set up?)")
        }
        if !problems.isEmpty { throw DriftError(problems: problems) }
        files["classes.lua"] = "---@meta\n-- Shapes of the values the host modules take and return.\n\n" + ModuleDocumentation.classes + "\n"
        files["scenarios.lua"] = ModuleDocumentation.scenarios + "\n"
        files[".luarc.json"] = luarc(
            globals: host.modules.map(\.name) + ModuleDocumentation.scenarioGlobals + ModuleDocumentation.testGlobals)
        return files
    }

    /// Writes the files into `directory`, rewriting only those whose contents changed.
    @discardableResult
    package static func write(for host: EnvScriptHost, to directory: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [String] = []
        for (name, text) in try files(for: host).sorted(by: { $0.key < $1.key }) {
            let url = directory.appendingPathComponent(name)
            if (try? String(contentsOf: url, encoding: .utf8)) == text { continue }
            try text.write(to: url, atomically: true, encoding: .utf8)
            written.append(name)
        }
        return written
    }

    /// The parameter names of a function, from its `---@param` lines.
    static func parameters(in annotations: String) -> [String] {
        annotations.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("---@param ") else { return nil }
            let name = line.dropFirst("---@param ".count).split(separator: " ").first.map(String.init) ?? ""
            return name.hasSuffix("?") ? String(name.dropLast()) : name
        }
    }

    static func luarc(globals: [String]) -> String {
        let settings: [String: Any] = [
            "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
            "runtime.version": "Lua 5.4",
            "workspace.library": ["."],
            "diagnostics.globals": globals,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: settings, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
