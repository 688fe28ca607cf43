import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A file that fails at its top level (an error outside any `it`) is reported as an errored file; the
/// other files still run, the report is written, and the run exits 1.
@Suite(.timeLimit(.minutes(15))) struct ErroredFileTests {
    /// Three files: one that fails before declaring anything (it sorts first), one that fails after
    /// declaring a test, one that passes.
    static func files(in scratch: Scratch) throws -> [String] {
        try scratch.write("a_broken.lua", "local helpers = nil\nlocal login = helpers.login\n")
        try scratch.write("b_late.lua", "describe('late', function() it('never runs', function() end) end)\n\nerror('no fixtures')\n")
        try scratch.write("c_good.lua", "describe('good', function() it('passes', function() end) end)\n")
        return ["a_broken.lua", "b_late.lua", "c_good.lua"]
    }

    @Test func prettyShowsAnErrorLineNamingFileAndLine() throws {
        let scratch = try Scratch()
        let outcome = try scratch.run(["run"] + Self.files(in: scratch))
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("ERROR a_broken.lua:2 ") })
        #expect(lines.contains("     a_broken.lua:2: attempt to index a nil value (local 'helpers')"))
        #expect(lines.contains { $0.hasPrefix("ERROR b_late.lua:3 ") })
        #expect(lines.contains("     b_late.lua:3: no fixtures"))
        #expect(!outcome.standardOutput.contains("never runs"), "the tests of an errored file do not run")
        #expect(lines.contains { $0.hasPrefix("PASS good passes") })
        #expect(lines.last == "1 passed, 0 failed, 2 errored")
    }

    @Test func tapHasANotOkLinePerErroredFileInThePlan() throws {
        let scratch = try Scratch()
        let outcome = try scratch.run(["run", "--format", "tap"] + Self.files(in: scratch))
        #expect(outcome.status == 1)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "TAP version 13")
        #expect(lines.dropLast().last == "1..3")
        #expect(lines.contains { $0.hasPrefix("not ok 1 - a_broken.lua:2 ") })
        #expect(lines.contains { $0.hasPrefix("not ok 2 - b_late.lua:3 ") })
        #expect(lines.contains("ok 3 - good passes"))
        #expect(lines.contains("    b_late.lua:3: no fixtures"))
        // A file that failed outside any test is an error, as TAP's readers tell errors from failures.
        let afterFirst = lines.drop { !$0.hasPrefix("not ok 1 - ") }.dropFirst()
        #expect(Array(afterFirst.prefix(2)) == ["  ---", "  severity: error"], "\(outcome.standardOutput)")
    }

    @Test func junitIsWrittenWithAnErrorForEachErroredFile() throws {
        let scratch = try Scratch()
        let outcome = try scratch.run(["run", "--format", "junit", "--output", "report.xml"] + Self.files(in: scratch))
        #expect(outcome.status == 1)
        let document = try XMLDocument(contentsOf: scratch.url.appendingPathComponent("report.xml"))
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "3")
        #expect(root.attribute(forName: "errors")?.stringValue == "2")
        #expect(root.attribute(forName: "failures")?.stringValue == "0")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.compactMap { $0.attribute(forName: "name")?.stringValue } == ["a_broken.lua", "b_late.lua", "c_good.lua"])
        let late = try #require(suites.first { $0.attribute(forName: "name")?.stringValue == "b_late.lua" })
        #expect(late.attribute(forName: "errors")?.stringValue == "1")
        let testcase = try #require(late.elements(forName: "testcase").first)
        #expect(testcase.attribute(forName: "name")?.stringValue == "(top level)")
        let error = try #require(testcase.elements(forName: "error").first)
        #expect(error.attribute(forName: "message")?.stringValue == "b_late.lua:3: no fixtures")
        #expect(error.stringValue?.contains("stack traceback:") == true)
    }

    @Test func aFilterStillReportsErroredFiles() throws {
        let scratch = try Scratch()
        let outcome = try scratch.run(["run", "--filter", "good"] + Self.files(in: scratch))
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.hasSuffix("1 passed, 0 failed, 2 errored\n"))
    }

    @Test func plainScriptsAllRunAndEachErrorGoesToStandardError() throws {
        let scratch = try Scratch()
        try scratch.write("first.lua", "print('first')\nerror('first failed')\n")
        try scratch.write("second.lua", "print('second')\n")
        let outcome = try scratch.run("run", "first.lua", "second.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "first\nsecond\n")
        #expect(outcome.standardError.hasPrefix("first.lua:2: first failed\nstack traceback:\n"))
    }
}
