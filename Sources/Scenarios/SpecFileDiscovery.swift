import Foundation
import LuaBridge

/// Finds a busted project's spec files as busted does: each root given (busted's `ROOT`, `spec` by
/// default) is a file, run as it is, or a folder searched — with its subfolders unless `recursive` is
/// off — for `.lua` files whose name (without the folder) matches one of `patterns` (Lua patterns,
/// `_spec` by default) and none of `excludedPatterns`; files and folders whose name starts with a dot
/// are left out; a folder reached again through a symbolic link is walked once. Each root's files come
/// sorted by path, the roots in the order given.
package struct SpecFileDiscovery {
    /// busted's default root, pattern and module path.
    package static let defaultRoot = "spec"
    package static let defaultPattern = "_spec"
    package static let defaultModulePath = "./src/?.lua;./src/?/?.lua;./src/?/init.lua"

    package var patterns: [String] = [defaultPattern]
    package var excludedPatterns: [String] = []
    package var recursive = true

    /// A root that is neither a file nor a folder, or a pattern Lua refuses.
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    package init(patterns: [String] = [defaultPattern], excludedPatterns: [String] = [], recursive: Bool = true) {
        self.patterns = patterns
        self.excludedPatterns = excludedPatterns
        self.recursive = recursive
    }

    /// The spec files under `roots`, in run order.
    ///
    /// - Parameters:
    ///   - describingRoot: how a root is named in the error when it does not exist (the option or file
    ///     that gave it).
    ///   - keepsMissing: whether a root that does not exist is kept as a file (whose reading then fails
    ///     naming it) rather than refused here.
    package func files(under roots: [String], describingRoot: String = "ROOT", keepsMissing: Bool = false) throws -> [String] {
        var found: [String] = []
        for root in roots {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else {
                if keepsMissing {
                    found.append(root)
                    continue
                }
                throw Problem(description: "no file or folder '\(root)' (\(describingRoot)): name the spec files or folders to run, or run from the project's root")
            }
            if !isFolder.boolValue {
                found.append(root)
                continue
            }
            let candidates = luaFiles(in: root)
            let chosen = try matching(candidates.map { ($0 as NSString).lastPathComponent })
            found += zip(candidates, chosen).filter(\.1).map(\.0).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        return found
    }

    /// Every `.lua` file under `folder` (paths joined to it as given), without hidden files and folders.
    private func luaFiles(in folder: String) -> [String] {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        var files: [String] = []
        var pending = [base]
        // Each folder once, by its real path: a link back up (`spec/loop -> .`) is not walked again.
        var walked: Set<String> = []
        while let current = pending.popLast() {
            guard walked.insert(URL(fileURLWithPath: current).resolvingSymlinksInPath().path).inserted,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: current) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = current + "/" + name
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
                if isFolder.boolValue {
                    if recursive { pending.append(path) }
                } else if name.hasSuffix(".lua") {
                    files.append(path)
                }
            }
        }
        return files
    }

    /// Busted's choice, for each name: excluded when it matches an exclude pattern, chosen when it
    /// matches a pattern (or when there is none). Lua's own `string.find` reads the patterns.
    private func matching(_ names: [String]) throws -> [Bool] {
        guard !names.isEmpty else { return [] }
        let state = try LuaState(options: LuaOptions(memoryLimit: 64 << 20, instructionLimit: 100_000_000))
        let chooser = """
            local names, patterns, excluded = ...
            local chosen = {}
            for i, name in ipairs(names) do
              local keep = #patterns == 0
              for _, p in ipairs(excluded) do
                if p ~= '' and name:find(p) then keep = nil break end
              end
              if keep ~= nil then
                for _, p in ipairs(patterns) do
                  if name:find(p) then keep = true break end
                end
              end
              chosen[i] = keep == true
            end
            return chosen
            """
        func list(_ texts: [String]) -> LuaValue { .array(texts.map { .string($0) }) }
        do {
            let answer = try state.execute(
                chooser, chunkName: "=patterns", arguments: [list(names), list(patterns), list(excludedPatterns)])
            return answer.first?.tableValue?.array.map { $0.boolValue == true } ?? []
        } catch let error as LuaError {
            let message = error.message.replacingOccurrences(of: "patterns:6: ", with: "").replacingOccurrences(of: "patterns:10: ", with: "")
            throw Problem(description: "a spec file pattern is not a Lua pattern (--pattern, --exclude-pattern): \(message)")
        }
    }
}
