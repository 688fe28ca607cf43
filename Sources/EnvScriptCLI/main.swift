import ArgumentParser
import Foundation
import Logging

// The entry point maps every outcome to envscript's exit statuses: 0 success, 1 a script failed,
// 2 a usage or load error (ArgumentParser's own validation errors included).

let logLevel = EnvironmentVariable.value("ENVSCRIPT_LOG_LEVEL").flatMap(Logger.Level.init(rawValue:)) ?? .warning
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = logLevel
    return handler
}

do {
    if let failure = ArgumentEncoding.failureForArgumentNotUTF8() { throw failure }
    var command = try CommandLineParsing.command(for: Array(CommandLine.arguments.dropFirst()))
    try command.run()
    flushStandardOutput()
    exit(ExitStatus.success)
} catch let failure as CommandFailure {
    if !failure.message.isEmpty { printError(failure.message) }
    exit(failure.status)
} catch {
    let status = EnvScriptCommand.exitCode(for: error)
    // ArgumentParser says "unexpected argument" of a mistyped subcommand: say what it is, and the near names.
    if status != .success, let unknown = UnknownSubcommand.failure(in: Array(CommandLine.arguments.dropFirst())) {
        printError(unknown.message)
        exit(unknown.status)
    }
    let message = EnvScriptCommand.fullMessage(for: error)
    if status == .success {
        print(message)
        exit(ExitStatus.success)
    }
    printError(message)
    exit(status == .failure ? ExitStatus.failure : ExitStatus.usage)
}
