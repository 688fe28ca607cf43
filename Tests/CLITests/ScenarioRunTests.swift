import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `envscript run` on busted-style scenarios, against the built binary.
@Suite(.timeLimit(.minutes(15))) struct ScenarioRunTests {
    static let mixed = """
        describe("login", function()
          local session
          before_each(function() session = { user = "qa" } end)
          after_each(function() session = nil end)
          it("keeps the session", function()
            assert.equals("qa", session.user)
            assert.same({ a = { 1, 2 } }, { a = { 1, 2 } })
          end)
          it("notices a wrong user", function()
            assert.equals("admin", session.user)
          end)
          pending("remembers the last screen")
          describe("errors", function()
            it("are checked", function()
              assert.has_error(function() error("boom") end, "boom")
              assert.is_nil(nil) assert.not_nil(1) assert.is_true(true) assert.is_false(false)
            end)
          end)
        end)
        """

    @Test func prettyShowsEachTestAndTheSummary() throws {
        let scratch = try Scratch()
        try scratch.write("login.lua", Self.mixed)
        let outcome = try scratch.run("run", "login.lua")
        #expect(outcome.status == 1)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("PASS login keeps the session") })
        #expect(lines.contains { $0.hasPrefix("FAIL login notices a wrong user") })
        #expect(lines.contains("     login.lua:10: Expected objects to be equal."))
        #expect(lines.contains("     Passed in:"))
        #expect(lines.contains("     (string) 'qa'"))
        #expect(lines.contains("     (string) 'admin'"))
        #expect(lines.contains("SKIP login remembers the last screen (pending)"))
        #expect(lines.last == "2 passed, 1 failed, 1 skipped")
    }

    @Test func allPassingExitsZero() throws {
        let scratch = try Scratch()
        try scratch.write("ok.lua", "describe('math', function() it('adds', function() assert.equals(4, 2 + 2) end) end)")
        let outcome = try scratch.run("run", "ok.lua")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test func tapHasAPlanAndOkLines() throws {
        let scratch = try Scratch()
        try scratch.write("login.lua", Self.mixed)
        let outcome = try scratch.run("run", "--format", "tap", "login.lua")
        #expect(outcome.status == 1)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        // The plan comes last, as busted writes it (a failing hook adds a line).
        #expect(lines.first == "TAP version 13")
        #expect(lines.dropLast().last == "1..4")
        #expect(lines.contains("ok 1 - login keeps the session"))
        #expect(lines.contains("not ok 2 - login notices a wrong user"))
        #expect(lines.contains("ok 3 - login remembers the last screen # SKIP pending"))
        #expect(lines.contains("ok 4 - login errors are checked"))
    }

    @Test func junitIsValidXMLWithCounts() throws {
        let scratch = try Scratch()
        try scratch.write("login.lua", Self.mixed)
        let outcome = try scratch.run("run", "--format", "junit", "--output", "report.xml", "login.lua")
        #expect(outcome.status == 1)
        let document = try XMLDocument(contentsOf: scratch.url.appendingPathComponent("report.xml"))
        let suites = try #require(document.rootElement())
        #expect(suites.name == "testsuites")
        #expect(suites.attribute(forName: "tests")?.stringValue == "4")
        #expect(suites.attribute(forName: "failures")?.stringValue == "1")
        #expect(suites.attribute(forName: "skipped")?.stringValue == "1")
        let cases = try document.nodes(forXPath: "//testcase") as? [XMLElement] ?? []
        #expect(cases.count == 4)
        let failed = try #require(cases.first { $0.attribute(forName: "name")?.stringValue == "notices a wrong user" })
        let failure = try #require(failed.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue?.contains("login.lua:10: Expected objects to be equal.") == true)
    }

    @Test func junitEscapesMarkupQuotesLineBreaksAndControlCharacters() throws {
        let scratch = try Scratch()
        try scratch.write("odd.lua", #"""
            describe("<odd> & \"quoted\" 'names'", function()
              it("fails with\nlines\tand \1 controls", function() error("a <b> & c \"d\"\n\2 e", 0) end)
            end)
            """#)
        let outcome = try scratch.run("run", "--format", "junit", "--output", "report.xml", "odd.lua")
        #expect(outcome.status == 1)
        let document = try XMLDocument(contentsOf: scratch.url.appendingPathComponent("report.xml"))
        let testcase = try #require((try document.nodes(forXPath: "//testcase") as? [XMLElement])?.first)
        #expect(testcase.attribute(forName: "name")?.stringValue == "fails with\nlines\tand \\u{1} controls")
        #expect(testcase.attribute(forName: "classname")?.stringValue == "odd.lua.<odd> & \"quoted\" 'names'")
        let failure = try #require(testcase.elements(forName: "error").first)
        #expect(failure.attribute(forName: "message")?.stringValue == "a <b> & c \"d\"\n\\u{2} e")
        #expect(failure.stringValue?.hasPrefix("a <b> & c \"d\"\n\\u{2} e") == true)
    }

    /// A global set in a hook is its block's (busted's scoping), so the count lives in a table.
    @Test func errorsInHooksFailTheTestAndAfterEachStillRuns() throws {
        let scratch = try Scratch()
        try scratch.write("hooks.lua", """
            counts = { cleaned = 0 }
            describe("hooks", function()
              before_each(function() error("no database") end)
              after_each(function() counts.cleaned = counts.cleaned + 1 end)
              it("never runs its body", function() error("unreachable") end)
            end)
            describe("after", function()
              it("sees the cleanup", function() assert.equals(1, counts.cleaned) end)
            end)
            """)
        let outcome = try scratch.run("run", "hooks.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("before_each failed: hooks.lua:3: no database"))
        #expect(!outcome.standardOutput.contains("unreachable"))
        #expect(outcome.standardOutput.contains("PASS after sees the cleanup"))
    }

    /// As in busted, a describe body that fails is an error of its block; the blocks after it still run.
    @Test func anErrorInADescribeBodyIsAnErrorOfItsBlock() throws {
        let scratch = try Scratch()
        try scratch.write("broken.lua", """
            describe('broken', function()
              it('is not run', function() end)
              local x = nil
              x.field = 1
            end)
            describe('fine', function() it('runs', function() end) end)
            """)
        let outcome = try scratch.run("run", "--no-init", "broken.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.hasPrefix("Start-up script: none (--no-init)\nERROR broken ("), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("     broken.lua:4: attempt to index a nil value"))
        #expect(!outcome.standardOutput.contains("is not run"))
        #expect(outcome.standardOutput.contains("PASS fine runs"))
        #expect(outcome.standardOutput.hasSuffix("1 passed, 0 failed, 1 errored\n"))
    }

    @Test func filterSelectsByFullName() throws {
        let scratch = try Scratch()
        try scratch.write("login.lua", Self.mixed)
        let outcome = try scratch.run("run", "--filter", "errors", "login.lua")
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").dropFirst()
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("PASS login errors are checked") == true)
        #expect(lines.last == "1 passed, 0 failed")
    }

    @Test func aRunawayTestFailsAloneWithinItsBudget() throws {
        let scratch = try Scratch()
        try scratch.write("loop.lua", """
            describe("budget", function()
              it("loops", function() while true do end end)
              it("still runs", function() assert.is_true(true) end)
            end)
            """)
        let outcome = try scratch.run("run", "--instruction-limit", "100000", "loop.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("instruction limit exceeded"))
        #expect(outcome.standardOutput.contains("PASS budget still runs"))
    }
}
