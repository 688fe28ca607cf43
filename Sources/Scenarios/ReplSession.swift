package import EnvScript
package import LuaBridge

/// The evaluator behind `envscript repl`: runs what the user typed in the host's Lua state, says when
/// the input is not finished yet, shows values as Lua would write them (tables over several lines,
/// host objects as they describe themselves) and lists the names that complete a word.
///
/// The session loads luassert's `assert`, `spy`, `stub`, `mock` and `match` (``ScenarioPrelude``), so
/// a scenario's lines can be tried out one by one.
package final class ReplSession {
    /// What one evaluation came to.
    package enum Outcome: Equatable, Sendable {
        /// The input is a statement cut short (an open `function`, `do`, string...): read another line.
        case incomplete
        /// The statement ran; the text of the values it gave, nil when it gave none.
        case shown(String?)
        /// The input did not compile, or raised an error: the message, with the traceback of an error
        /// raised inside functions.
        case failed(String)
        /// The statement was stopped by ``interrupter`` (Ctrl-C).
        case interrupted
    }

    /// The chunk name of what the user types: errors read `stdin:1: ...`.
    static let chunkName = "=stdin"

    private let host: EnvScriptHost
    private let run: LuaFunctionRef
    private let complete: LuaFunctionRef

    /// The REPL's own Lua (`repl.lua`): evaluation, printing and completion.
    static let luaPart = EmbeddedLuaChunk(name: "repl.lua", source: PackageResources.repl_lua)

    /// A session over `host`, whose start-up scripts have run.
    package init(host: EnvScriptHost) throws {
        self.host = host
        _ = try ScenarioPrelude.load(into: host)
        let api = try host.lock.withLock {
            // Lines typed here are tried as a scenario's would be: `assert` is luassert's (a plain
            // script's is Lua's own).
            try host.lua.execute("assert = require('luassert')", chunkName: "=" + ScenarioPrelude.chunkPrefix + "repl")
            return try Self.luaPart.load(into: host.lua).call().first
        }
        guard case .function(let run) = api?["run"], case .function(let complete) = api?["complete"] else {
            throw LuaScriptError("the REPL's Lua part did not return its functions")
        }
        self.run = run
        self.complete = complete
    }

    /// Stops the statement running now, from any thread (Ctrl-C): it fails with `interrupted`.
    package var interrupter: LuaInterrupter { host.lua.interrupter }

    /// Compiles and runs `source` (the lines typed so far, joined by line feeds). An expression shows
    /// its values; `=expr` is read as `return expr`, as Lua 5.1's prompt did.
    package func evaluate(_ source: String) -> Outcome {
        host.lock.withLock {
            let text = source.hasPrefix("=") ? "return " + source.dropFirst() : source
            let chunk: LuaFunctionRef
            do {
                chunk = try host.lua.load("return " + text, chunkName: Self.chunkName)
            } catch {
                do {
                    chunk = try host.lua.load(text, chunkName: Self.chunkName)
                } catch let error as LuaError {
                    return error.message.hasSuffix("<eof>") ? .incomplete : .failed(error.message)
                } catch {
                    return .failed("\(error)")
                }
            }
            do {
                // Ctrl-C interrupts it (LuaInterrupter), limits or none.
                let values = try run.call(.function(chunk))
                guard case .string(let text) = values else { return .shown(nil) }
                return .shown(text)
            } catch let error as LuaError {
                if error.kind == .timeLimit && error.message.hasSuffix(": interrupted") { return .interrupted }
                return .failed(Self.describe(error))
            } catch {
                return .failed("\(error)")
            }
        }
    }

    /// The words that complete `word`: globals and keywords, fields after `.`, methods after `:`.
    package func completions(for word: String) -> [String] {
        host.lock.withLock {
            guard case .table(let table)? = try? complete.call(.string(word)) else { return [] }
            return table.array.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
    }

    /// The message and the traceback of the functions it passed through, without the REPL's own frames.
    private static func describe(_ error: LuaError) -> String {
        guard let traceback = error.traceback else { return error.message }
        let frames = traceback.split(separator: "\n").dropFirst().filter { line in
            !line.contains(ScenarioPrelude.chunkPrefix) && !line.contains("[C]: in ?")
                && !(line.hasPrefix("\tstdin:") && line.hasSuffix("in main chunk"))
        }
        guard !frames.isEmpty else { return error.message }
        return error.message + "\nstack traceback:\n" + frames.joined(separator: "\n")
    }
}
