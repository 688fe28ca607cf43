import Foundation
import TestSupport
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reports stay well-formed whatever a test's name or message holds — control characters, the escape
/// of coloured output, U+FFFE and U+FFFF, bytes that are not UTF-8, NUL, line feeds, `#` — and show
/// all of it: controls as `\u{…}`, bad bytes as U+FFFD, each test under its own name.
@Suite(.timeLimit(.minutes(15))) struct ReportEscapingTests {
    /// Names and messages with everything a report must survive (Lua escapes: the file is ASCII).
    static let odd = #"""
        describe("odd", function()
          it("ctl \1 esc \27[31m nonchars \u{FFFE}\u{FFFF} end", function()
            error("before NUL\0after NUL \27[0m", 0)
          end)
          it("bad \xff\xfe bytes", function() end)
          it("two\nok 9 - lines # TODO and \\ slash", function()
            error("  indented first line\nok 7 - not a test\n...\nlast", 0)
          end)
        end)
        """#

    @Test func junitIsWellFormedAndShowsWhatXMLCannotCarry() throws {
        let scratch = try Scratch()
        try scratch.write("odd.lua", Self.odd)
        let outcome = try scratch.run("run", "--format", "junit", "--output", "report.xml", "odd.lua")
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let url = scratch.url.appendingPathComponent("report.xml")

        // A strict parser first: the whole document must be well-formed XML 1.0.
        let parser = try #require(XMLParser(contentsOf: url))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")

        let document = try XMLDocument(contentsOf: url)
        let cases = try document.nodes(forXPath: "//testcase") as? [XMLElement] ?? []
        let names = cases.compactMap { $0.attribute(forName: "name")?.stringValue }
        #expect(names == [
            #"ctl \u{1} esc \u{1B}[31m nonchars \u{FFFE}\u{FFFF} end"#,
            "bad \u{FFFD}\u{FFFD} bytes",
            "two\nok 9 - lines # TODO and \\ slash",
        ])
        #expect(cases.allSatisfy { $0.attribute(forName: "classname")?.stringValue == "odd.lua.odd" })
        // error() in a test is busted's "error", not an assertion's failure.
        let failure = try #require(cases.first?.elements(forName: "error").first)
        #expect(failure.attribute(forName: "message")?.stringValue == #"before NUL\u{0}after NUL \u{1B}[0m"#)
        #expect(failure.stringValue?.hasPrefix(#"before NUL\u{0}after NUL \u{1B}[0m"#) == true)
    }

    @Test func tapKeepsOneLinePerTestAndMessagesInTheirBlock() throws {
        let scratch = try Scratch()
        try scratch.write("odd.lua", Self.odd)
        let outcome = try scratch.run("run", "--format", "tap", "--output", "report.tap", "odd.lua")
        #expect(outcome.status == 1, "\(outcome.standardError)")

        // Perl's TAP::Parser, the parser of prove, reads the plan, each test and each YAML block.
        let parsed = try TAPParse(scratch.url.appendingPathComponent("report.tap"))
        #expect(parsed.parseErrors == [])
        #expect(parsed.unknown == [])
        #expect(parsed.planned == 3 && parsed.run == 3)
        #expect(parsed.tests.map(\.number) == [1, 2, 3])
        #expect(parsed.tests.map(\.ok) == [false, true, false])
        #expect(parsed.tests.map(\.description) == [
            #"- odd ctl \u{1} esc \u{1B}[31m nonchars \u{FFFE}\u{FFFF} end"#,
            "- odd bad \u{FFFD}\u{FFFD} bytes",
            ##"- odd two\nok 9 - lines \# TODO and \\ slash"##,
        ])
        #expect(parsed.tests.map(\.directive) == ["", "", ""], "a `# TODO` in a name is not a directive")
        #expect(parsed.tests[0].message == #"before NUL\u{0}after NUL \u{1B}[0m"#)
        #expect(parsed.tests[2].message == "  indented first line\nok 7 - not a test\n...\nlast")
        #expect(parsed.tests[2].traceback?.hasPrefix("stack traceback:") == true)
    }

    @Test func prettyKeepsNamesOnOneLineAndMessagesWhole() throws {
        let scratch = try Scratch()
        try scratch.write("odd.lua", Self.odd)
        let outcome = try scratch.run("run", "odd.lua")
        #expect(outcome.status == 1)
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains { $0.hasPrefix(#"ERROR odd ctl \u{1} esc \u{1B}[31m nonchars \u{FFFE}\u{FFFF} end ("#) })
        #expect(lines.contains(#"     before NUL\u{0}after NUL \u{1B}[0m"#))
        #expect(lines.contains { $0.hasPrefix("PASS odd bad \u{FFFD}\u{FFFD} bytes (") })
        #expect(lines.contains { $0.hasPrefix(#"ERROR odd two\nok 9 - lines # TODO and \ slash ("#) })
        #expect(!outcome.standardOutput.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        #expect(lines.last(where: { !$0.isEmpty }) == "1 passed, 0 failed, 2 errored")
    }
}

/// A TAP document as Perl's TAP::Parser (prove's parser, installed by scripts/bootstrap) reads it.
private struct TAPParse: Decodable {
    struct TestLine: Decodable {
        var number: Int
        var ok: Bool
        var description: String
        var directive: String
        var message: String?
        var traceback: String?
    }

    var planned: Int
    var run: Int
    var parseErrors: [String]
    var unknown: [String]
    var tests: [TestLine]

    enum CodingKeys: String, CodingKey {
        case planned, run, tests, unknown
        case parseErrors = "parse_errors"
    }

    static let script = #"""
        use strict; use warnings; use TAP::Parser; use JSON::PP;
        open(my $file, '<:encoding(UTF-8)', $ARGV[0]) or die "cannot open $ARGV[0]: $!";
        my $tap = do { local $/; <$file> };
        my $parser = TAP::Parser->new({ tap => $tap });
        my (@tests, @unknown);
        while (my $result = $parser->next) {
            if ($result->is_test) {
                push @tests, { number => $result->number + 0, ok => ($result->is_actual_ok ? JSON::PP::true : JSON::PP::false),
                               description => $result->description, directive => $result->directive };
            } elsif ($result->is_yaml) {
                my $data = $result->data;
                for my $key (qw(message traceback)) {
                    next unless defined $data->{$key};
                    (my $text = $data->{$key}) =~ s/\n\z//;   # a literal block ends with a line feed
                    $tests[-1]{$key} = $text;
                }
            } elsif ($result->is_unknown) {
                push @unknown, $result->as_string;
            }
        }
        binmode(STDOUT);
        print JSON::PP->new->utf8->canonical->encode({ planned => ($parser->tests_planned // 0) + 0,
            run => $parser->tests_run + 0, parse_errors => [$parser->parse_errors], tests => \@tests, unknown => \@unknown });
        """#

    init(_ file: URL) throws {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/perl"), ["-e", Self.script, file.path], in: file.deletingLastPathComponent(),
            environment: ProcessInfo.processInfo.environment, timeout: 60)
        guard outcome.status == 0 else {
            throw TAPParserUnavailable(detail: "perl exited \(outcome.status): \(outcome.standardError)")
        }
        self = try JSONDecoder().decode(TAPParse.self, from: Data(outcome.standardOutput.utf8))
    }
}

/// Perl's TAP::Parser could not run: scripts/bootstrap installs perl.
private struct TAPParserUnavailable: Error, CustomStringConvertible {
    var detail: String
    var description: String { "Perl's TAP::Parser is needed (scripts/bootstrap installs perl): \(detail)" }
}
