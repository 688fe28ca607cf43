import Foundation
import LuaBridge

/// What `envscript run --coverage` writes, as busted's `--coverage` does with LuaCov: the line counts of
/// the files that ran (spec files, the modules they required, start-up scripts and their hooks) in
/// LuaCov's stats file (`luacov.stats.out`, or the `statsfile` of the project's `.luacov`), which
/// LuaCov's own reporter reads; and the same counts as an lcov tracefile (`lcov.info`), with every
/// line that holds code, run or not, for CI services.
///
/// Files are chosen as LuaCov chooses them: by their path as loaded (a leading `./` dropped, `.lua` cut
/// off) against the Lua patterns of `.luacov`'s `include` (all when empty) and `exclude`, and busted's
/// own exclusions (`busted%.`, `luassert%.`, `say%.`, `pl%.`, `busted_bootstrap$`).
package struct CoverageReport {
    /// Line counts by file, as LuaCov names files.
    package var files: [String: [Int: Int]]
    /// Where the stats file goes.
    package var statsFile: String

    /// The name of the lcov tracefile, written beside the stats file.
    package static let lcovFileName = "lcov.info"
    /// LuaCov's configuration file in the current folder.
    package static let configurationFile = ".luacov"
    /// The patterns busted adds to LuaCov's exclusions.
    static let bustedExclusions = ["busted_bootstrap$", "busted%.", "luassert%.", "say%.", "pl%."]

    /// A `.luacov` or a file that cannot be used.
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    /// The counts of `counted` (``LuaState/coverage``) that `.luacov` (read from `configuration`, when
    /// it exists) includes.
    package init(counted: [String: [Int: Int]], configuration: String = configurationFile) throws {
        let source = FileManager.default.contents(atPath: configuration).map { String(decoding: $0, as: UTF8.self) }
        var named: [String: [Int: Int]] = [:]
        for (chunk, lines) in counted {
            let name = chunk.hasPrefix("./") ? String(chunk.dropFirst(2)) : chunk
            named[name, default: [:]].merge(lines, uniquingKeysWith: +)
        }
        let names = named.keys.sorted()
        let chooser = """
            local source, names, busted_exclusions = ...
            local conf = {}
            if source then
              local chunk, problem = load(source, '@.luacov', 't', setmetatable(conf, { __index = _G }))
              if not chunk then error(problem, 0) end
              local returned = chunk()
              if type(returned) == 'table' then
                for k, v in pairs(returned) do if rawget(conf, k) == nil then conf[k] = v end end
              end
            end
            local function list(value) return type(value) == 'table' and value or {} end
            local include, exclude = list(conf.include), {}
            for _, p in ipairs(list(conf.exclude)) do exclude[#exclude + 1] = p end
            for _, p in ipairs(busted_exclusions) do exclude[#exclude + 1] = p end
            local chosen = {}
            for i, name in ipairs(names) do
              local n = name:gsub('\\\\', '/'):gsub('%.lua$', '')
              local keep = #include == 0
              for _, p in ipairs(include) do if n:match(p) then keep = true break end end
              if keep then for _, p in ipairs(exclude) do if n:match(p) then keep = false break end end end
              chosen[i] = keep
            end
            return chosen, type(conf.statsfile) == 'string' and conf.statsfile or nil
            """
        let state = try LuaState(options: LuaOptions(memoryLimit: 64 << 20, instructionLimit: 100_000_000))
        let answer: [LuaValue]
        do {
            answer = try state.execute(chooser, chunkName: "=.luacov", arguments: [
                source.map { .string($0) } ?? .nil, .array(names.map { .string($0) }),
                .array(Self.bustedExclusions.map { .string($0) }),
            ])
        } catch let error as LuaError {
            throw Problem(description: "cannot use \(configuration): \(error.message)")
        }
        let chosen = answer.first?.tableValue?.array ?? []
        files = Dictionary(uniqueKeysWithValues: zip(names, chosen).filter { $0.1.boolValue == true }.map { ($0.0, named[$0.0] ?? [:]) })
        statsFile = answer.dropFirst().first?.stringValue ?? "luacov.stats.out"
    }

    /// LuaCov's stats file: for each file (sorted by name), `MAX:NAME` and then the count of each line
    /// from 1 to MAX, each followed by a space.
    package var luacovStats: String {
        var text = ""
        for name in files.keys.sorted() {
            let lines = files[name] ?? [:]
            let last = lines.keys.max() ?? 0
            text += "\(last):\(name)\n"
            text += (0..<last).map { "\(lines[$0 + 1] ?? 0) " }.joined() + "\n"
        }
        return text
    }

    /// The lcov tracefile: each file's lines that hold code (from its bytecode) with their counts;
    /// a file that cannot be read again or compiled lists the lines that ran. The files are those the
    /// host itself loaded (``LuaState/coverage`` counts no other), read again from the same paths.
    package func lcov() -> String {
        var text = ""
        let state = try? LuaState(options: LuaOptions(memoryLimit: 256 << 20, instructionLimit: nil))
        for name in files.keys.sorted() {
            let counts = files[name] ?? [:]
            var code = Set(counts.keys)
            if let state, let data = FileManager.default.contents(atPath: name),
               case .bytes(let dump)? = try? state.execute(
                   "local source, name = ...; return string.dump(assert(load(source, '@' .. name, 't')))",
                   chunkName: "=lcov", arguments: [.string(String(decoding: data, as: UTF8.self)), .string(name)]).first,
               let active = ActiveLines.lines(inDump: dump) {
                code.formUnion(active)
            }
            let lines = code.sorted()
            text += "TN:\nSF:\(name)\n"
            for line in lines { text += "DA:\(line),\(counts[line] ?? 0)\n" }
            text += "LF:\(lines.count)\nLH:\(lines.filter { (counts[$0] ?? 0) > 0 }.count)\nend_of_record\n"
        }
        return text
    }

    /// Writes the stats file and, beside it, the lcov tracefile, each replaced whole (written beside and
    /// renamed, as a report is). Returns the paths written.
    ///
    /// - Parameter writableFolders: where the files may go (the project's folder, the folders granted
    ///   for writing): a `.luacov` comes with the project, and its `statsfile` may not name a place
    ///   outside them.
    package func write(within writableFolders: [String]) throws -> [String] {
        let folder = (statsFile as NSString).deletingLastPathComponent
        let target = URL(fileURLWithPath: folder.isEmpty ? "." : folder).standardizedFileURL.resolvingSymlinksInPath().path
        let allowed = writableFolders.map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
        guard allowed.contains(where: { target == $0 || target.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            throw Problem(description: "the coverage file \(statsFile) (statsfile in \(Self.configurationFile)) lies outside the project's folder and the folders granted with --allow-write")
        }
        let lcovFile = folder.isEmpty ? Self.lcovFileName : (folder as NSString).appendingPathComponent(Self.lcovFileName)
        for (path, text) in [(statsFile, luacovStats), (lcovFile, lcov())] {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw Problem(description: "cannot write the coverage file \(path): \(error.localizedDescription)")
            }
        }
        return [statsFile, lcovFile]
    }
}
