import Foundation
import Testing

/// A start-up script found by searching is run only when this user owns it and only its owner may
/// change it, as git trusts a repository: otherwise the command warns, names the file and runs without it.
@Suite(.timeLimit(.minutes(15))) struct StartupTrustTests {
    @Test func aScriptOthersMayChangeIsNotLoadedFromAbove() throws {
        let scratch = try Scratch()
        let startup = try scratch.write("envscript.lua", "error('must not run')\n")
        try scratch.write("qa/t.lua", "it('runs', function() end)\n")
        chmod(startup, 0o666)
        let outcome = try scratch.run("run", "qa/t.lua")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("warning: \(startup) is not loaded: users other than its owner may change it"))
        #expect(outcome.standardError.contains("--init \(startup)"))
        #expect(outcome.standardOutput.hasPrefix("Start-up script: none"))
        // Given explicitly, it runs.
        let given = try scratch.run("run", "--init", startup, "qa/t.lua")
        #expect(given.status == 2)
        #expect(given.standardError.contains("must not run"))
        // Fixed, it is found again.
        chmod(startup, 0o644)
        try "LOADED = true\n".write(toFile: startup, atomically: false, encoding: .utf8)
        try scratch.write("qa/loaded.lua", "it('sees it', function() assert.is_true(LOADED) end)\n")
        let fixed = try scratch.run("run", "qa/loaded.lua")
        #expect(fixed.status == 0, "\(fixed.standardOutput)\(fixed.standardError)")
        #expect(fixed.standardError.isEmpty)
    }
}
