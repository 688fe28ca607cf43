import Foundation
import Testing

/// `envscript check`, against the built binary.
@Suite(.timeLimit(.minutes(15))) struct CheckCommandTests {
    @Test func goodFilesAreReportedOkWithoutRunning() throws {
        let scratch = try Scratch()
        try scratch.write("good.lua", "print('ran') error('would fail if run')")
        let outcome = try scratch.run("check", "good.lua")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "good.lua: ok\n")
    }

    @Test func syntaxErrorsExitTwoAsInRunAndNameFileAndLine() throws {
        let scratch = try Scratch()
        try scratch.write("good.lua", "return 1")
        try scratch.write("bad.lua", "local x = 1\n\nif x then\n")
        let outcome = try scratch.run("check", "bad.lua", "good.lua")
        #expect(outcome.status == 2, "an input error, as for run")
        #expect(outcome.standardError.hasPrefix("bad.lua:4: 'end' expected"))
        #expect(outcome.standardOutput == "good.lua: ok\n", "every file is checked, not just up to the first error")
        #expect(try scratch.run("run", "bad.lua").status == outcome.status)
    }

    @Test func unreadableFilesExitTwo() throws {
        let scratch = try Scratch()
        let outcome = try scratch.run("check", "missing.lua")
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("cannot read script 'missing.lua': no such file"))
        let folder = try scratch.run("check", ".")
        #expect(folder.status == 2)
        #expect(folder.standardError.contains("it is a folder"))
    }
}
