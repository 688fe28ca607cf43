import Foundation
import TestSupport
import Testing

/// The built `envscript` run under strace(1), for tests that make a system call fail (`--inject`) where
/// a real disk would: an injection tied to a call, not to a moment, holds on a loaded machine.
extension EnvScriptProcess {
    /// Runs `envscript arguments...` under strace with `options` (say `["-e", "inject=rename:error=EIO:when=2"]`;
    /// `-f -qq` come first, and `-o /dev/null` unless the options name an output) in `directory`, to its end.
    static func runUnderStrace(_ options: [String], _ arguments: [String], in directory: URL) throws -> Outcome {
        let output = options.contains("-o") ? [] : ["-o", "/dev/null"]
        return try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/strace"), ["-f", "-qq"] + output + options + [try binary().path] + arguments,
            in: directory, environment: environment([:]))
    }

    /// Which call of its thread (from 1) the first line of the strace output at `trace` that calls `call`
    /// and contains `text` was: the `when` of an injection aimed at it (strace counts each thread's calls).
    static func straceCallNumber(in trace: String, of call: String, containing text: String) throws -> Int? {
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("\(call)(") }
        guard let target = calls.first(where: { $0.contains(text) }) else { return nil }
        let thread = target.split(separator: " ").first
        return calls.filter { $0.split(separator: " ").first == thread }.firstIndex(of: target).map { $0 + 1 }
    }
}
