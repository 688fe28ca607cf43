import Foundation
import Testing

/// A watched flagd file is checked on every re-read as on the first: replaced by a link to a file
/// outside the project, it is refused and the flags read before stay; an edit in place is taken.
@Suite(.timeLimit(.minutes(15))) struct FlagdFileSwapTests {
    static func flags(_ value: String) -> String {
        "{\"flags\": {\"f.v\": {\"state\": \"ENABLED\", \"variants\": {\"a\": \"\(value)\"}, \"defaultVariant\": \"a\"}}}"
    }

    @Test func aLinkSwappedInAfterTheFirstReadIsNotFollowed() throws {
        let project = try Scratch()
        let outside = try Scratch()
        let secret = try outside.write("secret.json", Self.flags("secret"))
        let file = try project.write("flags.json", Self.flags("v1"))
        try project.write("watch.lua", """
            tweak.stack{ tweak.flagd('flags.json') }
            local seen, started = nil, os.time()
            while os.time() < started + 6 do
              local value = tweak.value('f', 'v')
              if value ~= seen then print(value) seen = value end
            end
            """)
        let process = try EnvScriptProcess.start(["run", "--no-init", "--timeout", "30", "watch.lua"], in: project.url)
        Thread.sleep(forTimeInterval: 1.5)
        // An edit in place: the watch takes it (the test would mean nothing if it took nothing).
        try Self.flags("v2").write(toFile: file + ".new", atomically: false, encoding: .utf8)
        #expect(rename(file + ".new", file) == 0)
        Thread.sleep(forTimeInterval: 2)
        // A link to a file outside the project, swapped in with one rename.
        #expect(symlink(secret, file + ".link") == 0)
        #expect(rename(file + ".link", file) == 0)
        let outcome = process.wait(seconds: 60)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("v2"), "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("secret"), "\(outcome.standardOutput)")
    }
}
