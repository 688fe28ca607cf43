/// Lua's words for a use of what the sandbox leaves out followed by what to do: for a closed library
/// (`attempt to index a nil value (global 'io')`) its name, the option that opens it and how a project
/// grants it in its `.busted`; for a module found only outside the folders scripts load from, how to
/// grant its folder.
package enum SandboxHint {
    /// The functions each closed library would have had; `os`'s and `debug`'s are those the sandbox
    /// takes out of the part it keeps.
    private static let removedFields: [String: String] = [
        "execute": "os", "exit": "os", "getenv": "os", "remove": "os", "rename": "os", "tmpname": "os",
        "setlocale": "os",
        "sethook": "debug", "gethook": "debug", "getlocal": "debug", "setlocal": "debug",
        "getupvalue": "debug", "setupvalue": "debug", "upvaluejoin": "debug", "upvalueid": "debug",
        "setmetatable": "debug", "getregistry": "debug", "getuservalue": "debug", "setuservalue": "debug",
        "setcstacklimit": "debug",
    ]

    /// `message` with the hint added when it is Lua's error for a closed library or one of its
    /// functions; `message` itself otherwise.
    package static func annotate(_ message: String) -> String {
        if message.contains("module '"), message.contains("(outside the script roots)") {
            return message + "\n(a module outside the project loads once its folder may be read: run with --allow-read FOLDER, or grant it in the project's .busted: envscript = { ['allow-read'] = { 'FOLDER' } })"
        }
        guard let library = library(in: message) else { return message }
        let what = library.field.map { "if this is \(library.name).\($0): it is not in the sandbox" } ?? "\(library.name) is closed in the sandbox"
        return message + " (\(what); run with --allow \(library.name), or grant it in the project's .busted: envscript = { allow = { '\(library.name)' } })"
    }

    /// The closed library (and function) `message` names, if any.
    private static func library(in message: String) -> (name: String, field: String?)? {
        guard message.contains("attempt to index a nil value") || message.contains("attempt to call a nil value") else { return nil }
        for name in ["io", "debug", "os"] where message.contains("(global '\(name)')") {
            return (name, nil)
        }
        for (field, name) in removedFields where message.contains("(field '\(field)')") {
            // `x.setmetatable(...)` of some other table is no use of debug's: only os's and debug's own.
            if field == "setmetatable" { continue }
            return (name, field)
        }
        return nil
    }
}

extension ScenarioResult {
    /// The result with ``SandboxHint`` added to its message.
    func withSandboxHint() -> ScenarioResult {
        var result = self
        switch outcome {
        case .failed(let message, let traceback):
            result.outcome = .failed(message: SandboxHint.annotate(message), traceback: traceback)
        case .error(let message, let traceback):
            result.outcome = .error(message: SandboxHint.annotate(message), traceback: traceback)
        case .errored(let message, let traceback, let line):
            result.outcome = .errored(message: SandboxHint.annotate(message), traceback: traceback, line: line)
        case .passed, .skipped:
            break
        }
        return result
    }
}
