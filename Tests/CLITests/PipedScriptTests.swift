import Foundation
import Testing

/// A script read from a pipe or a device (`envscript run /dev/stdin`) makes no project folder of its
/// folder: `/dev` is nobody's project, and `/dev/shm` under it is shared by every user.
@Suite(.timeLimit(.minutes(15))) struct PipedScriptTests {
    @Test func aPipedScriptCannotReadUnderDev() throws {
        let scratch = try Scratch()
        let shared = "/dev/shm/envscript-piped-\(UUID().uuidString).json"
        try "{\"flags\": {}}".write(toFile: shared, atomically: false, encoding: .utf8)
        defer { unlink(shared) }
        try scratch.write("piped.lua", "print(pcall(tweak.flagd, '\(shared)'))\n")
        // From a pipe and from a file given on standard input: neither makes /dev a project folder.
        for command in ["cat piped.lua | \"$ENVSCRIPT\" run --no-init /dev/stdin", "\"$ENVSCRIPT\" run --no-init /dev/stdin < piped.lua"] {
            let outcome = try scratch.run(shell: command)
            #expect(outcome.status == 0, "\(command): \(outcome.standardError)")
            #expect(outcome.standardOutput.hasPrefix("false"), "\(command): \(outcome.standardOutput)")
            #expect(outcome.standardOutput.contains("is not allowed"), "\(command): \(outcome.standardOutput)")
        }
        // The same script as a file in the folder reads files there.
        let local = try scratch.write("flags.json", "{\"flags\": {}}")
        try scratch.write("local.lua", "print(pcall(tweak.flagd, '\(local)'))\n")
        let file = try scratch.run("run", "--no-init", "local.lua")
        #expect(file.standardOutput.hasPrefix("true"), "\(file.standardOutput) \(file.standardError)")
    }
}
