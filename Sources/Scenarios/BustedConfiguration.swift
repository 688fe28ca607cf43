import Foundation
import LuaBridge

/// A busted project's configuration file, `.busted`: a Lua chunk that returns a table of tasks, each a
/// table of busted's command-line options by their long names (`ROOT`, `pattern`, `lpath`, `helper`,
/// `tags`, `output`, ...). As busted reads it: the task named with `--run` (else `default`, when it is a
/// table) over `_all`; what the command line gives wins over both.
///
/// The file runs in a sandboxed Lua state of its own (no `io`, `os` beyond the clock, no `require` of
/// files outside its folder) under small limits: it only describes the run.
///
/// A task may also hold a table `envscript`, which busted ignores: what the project grants its specs
/// beyond the sandbox and its own limits, by the names of `envscript run`'s options (`allow`,
/// `allow-read`, `allow-write`, `allow-net`, `instruction-limit`, `memory-limit`, `test-timeout`,
/// `timeout`, `hook-timeout`).
package struct BustedConfiguration: Sendable {
    /// The file read, as given.
    package var file: String
    /// The task in force: the one asked for, else `default` when the file has one.
    package var task: String?
    /// The options, the task's over `_all`'s, by busted's long names.
    package var options: [String: Value]

    /// An option's value, as far as busted's options go: text, a number, a flag, or a list of them.
    package enum Value: Sendable, Equatable {
        case text(String)
        case number(Double)
        case flag(Bool)
        case list([Value])
        /// A table with keys (only `envscript` is one).
        case fields([String: Value])
    }

    /// A `.busted` that could not be used: the message names the file and what to do.
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    /// The options envscript reads from a task, by busted's names (and their one-letter forms).
    package static let supportedKeys: Set<String> = [
        "ROOT", "pattern", "p", "exclude-pattern", "lpath", "m", "helper", "tags", "t", "exclude-tags",
        "output", "o", "shuffle", "shuffle-files", "shuffle-tests", "seed", "recursive", "R", "repeat",
        "keep-going", "k", "list", "l", "coverage", "c", "filter", "loaders", "envscript",
    ]

    /// Options busted has that change nothing here, each with the reason given in the warning.
    package static let keysWithoutEffect: [String: String] = [
        "lua": "envscript runs its own Lua 5.4",
        "ignore-lua": "envscript runs its own Lua 5.4",
        "cpath": "the sandbox loads no C modules",
        "verbose": "envscript's reports always carry the message and traceback",
        "v": "envscript's reports always carry the message and traceback",
        "auto-insulate": "envscript always insulates files",
        "lang": "reports are in English",
        "enable-sound": "envscript plays no sound",
        "s": "envscript plays no sound",
    ]

    /// Reads `file` and picks `task` (nil: `default`, when the file has one).
    ///
    /// - Throws: ``Problem`` when the file cannot be read or run, does not return a table, or has no
    ///   task `task`.
    package static func load(file: String, task: String?) throws -> BustedConfiguration {
        let folder = (file as NSString).deletingLastPathComponent
        let state = try LuaState(options: LuaOptions(
            memoryLimit: 16 << 20, instructionLimit: 10_000_000, scriptRoots: [folder.isEmpty ? "." : folder]))
        let returned: LuaValue
        do {
            returned = try state.executeFile(file).first ?? .nil
        } catch let error as LuaError {
            throw Problem(description: "cannot use the busted configuration \(file): \(error.message)")
        }
        guard case .table(let tasks) = returned else {
            throw Problem(description: "the busted configuration \(file) does not return a table (it returns a \(returned.typeName)); it should return { default = { ... } }")
        }
        var options: [String: Value] = [:]
        let chosen: String?
        if let task {
            guard case .table(let table) = tasks[task] else {
                let names = tasks.fields.keys.compactMap(\.stringValue).filter { $0 != "_all" }.sorted()
                throw Problem(description: "the busted configuration \(file) has no task '\(task)' (--run)"
                    + (names.isEmpty ? "" : "; its tasks: " + names.joined(separator: ", ")))
            }
            options = try values(of: table, in: file, task: task)
            chosen = task
        } else if case .table(let table) = tasks["default"] {
            options = try values(of: table, in: file, task: "default")
            chosen = "default"
        } else {
            chosen = nil
        }
        if case .table(let all) = tasks["_all"] {
            options.merge(try values(of: all, in: file, task: "_all")) { task, _ in task }
        }
        return BustedConfiguration(file: file, task: chosen, options: options)
    }

    /// The options of one task's table.
    private static func values(of table: LuaTable, in file: String, task: String) throws -> [String: Value] {
        var options: [String: Value] = [:]
        for (key, value) in table.fields {
            guard let name = key.stringValue else { continue }
            options[name] = try self.value(value, key: name, in: file, task: task)
        }
        return options
    }

    private static func value(_ value: LuaValue, key: String, in file: String, task: String) throws -> Value {
        switch value {
        case .string(let text): return .text(text)
        case .bytes(let bytes): return .text(String(decoding: bytes, as: UTF8.self))
        case .integer(let number): return .number(Double(number))
        case .number(let number): return .number(number)
        case .boolean(let flag): return .flag(flag)
        case .table(let table) where table.fields.isEmpty:
            return .list(try table.array.map { try self.value($0, key: key, in: file, task: task) })
        case .table(let table):
            var fields: [String: Value] = [:]
            for (inner, element) in table.fields {
                guard let name = inner.stringValue else { continue }
                fields[name] = try self.value(element, key: "\(key).\(name)", in: file, task: task)
            }
            return .fields(fields)
        default:
            throw Problem(description: "the busted configuration \(file), task '\(task)': '\(key)' is a \(value.typeName); busted's options are text, numbers, true/false or lists of them")
        }
    }

    // MARK: Reading the options

    /// The first of `keys` the task sets.
    private func first(_ keys: [String]) -> (key: String, value: Value)? {
        for key in keys { if let value = options[key] { return (key, value) } }
        return nil
    }

    /// A list option (`ROOT`, `pattern`, `tags`): text, or a list of texts; lists busted splits at commas
    /// (`tags`) are split too when `splitsCommas`.
    package func texts(_ keys: String..., splitsCommas: Bool = false) throws -> [String]? {
        guard let (key, value) = first(keys) else { return nil }
        let items: [Value] = if case .list(let list) = value { list } else { [value] }
        let texts = try items.map { item -> String in
            switch item {
            case .text(let text): return text
            case .number(let number): return number == number.rounded() ? String(Int(number)) : String(number)
            default: throw problem(key, "a text or a list of texts")
            }
        }
        guard splitsCommas else { return texts }
        return texts.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }

    /// A text option (`lpath`, `helper`, `output`).
    package func text(_ keys: String...) throws -> String? {
        guard let (key, value) = first(keys) else { return nil }
        guard case .text(let text) = value else { throw problem(key, "a text") }
        return text
    }

    /// A flag option (`recursive`, `shuffle`, `coverage`).
    package func flag(_ keys: String...) throws -> Bool? {
        guard let (key, value) = first(keys) else { return nil }
        guard case .flag(let flag) = value else { throw problem(key, "true or false") }
        return flag
    }

    /// A number option (`seed`, `repeat`).
    package func number(_ keys: String...) throws -> Double? {
        guard let (key, value) = first(keys) else { return nil }
        switch value {
        case .number(let number): return number
        case .text(let text): if let number = Double(text) { return number }
        default: break
        }
        throw problem(key, "a number")
    }

    /// The `envscript` table: what the project grants its specs, by `envscript run`'s option names.
    package var envscript: [String: Value] {
        if case .fields(let fields)? = options["envscript"] { return fields }
        return [:]
    }

    private func problem(_ key: String, _ expected: String) -> Problem {
        Problem(description: "the busted configuration \(file)\(task.map { ", task '\($0)'" } ?? ""): '\(key)' must be \(expected)")
    }

    /// Warnings for what the task sets that this run does not honour: unknown keys, and busted's options
    /// that change nothing here (with the reason), each named.
    package var warnings: [String] {
        let place = "\(file)\(task.map { " (task '\($0)')" } ?? "")"
        return options.keys.sorted().compactMap { key in
            if Self.supportedKeys.contains(key) { return nil }
            if let reason = Self.keysWithoutEffect[key] { return "\(place): '\(key)' has no effect: \(reason)" }
            return "\(place): '\(key)' is not an option envscript run knows; it is ignored"
        }
    }
}
