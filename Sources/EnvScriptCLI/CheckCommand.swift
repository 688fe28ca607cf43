import ArgumentParser
import EnvScript
import LuaBridge

/// `envscript check FILE...`: compiles scripts without running them and reports syntax errors.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compile Lua scripts without running them.",
        discussion: "Prints 'FILE: ok' for each good file; exits 2 when any has a syntax error or cannot be read, as run does.")

    @Argument(help: ArgumentHelp("The Lua scripts to check.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if files.isEmpty { throw ValidationError("Missing a script to check: envscript check FILE...") }
    }

    func run() throws {
        let lua = try LuaState()
        var worst = ExitStatus.success
        for file in files {
            do {
                _ = try ScriptFile.compile(atPath: file, in: lua)
                print("\(file): ok")
            } catch {
                let failure = ErrorReport.failure(for: error)
                printError(failure.message)
                worst = max(worst, failure.status)
            }
        }
        if worst != ExitStatus.success { throw CommandFailure(message: "", status: worst) }
    }
}
