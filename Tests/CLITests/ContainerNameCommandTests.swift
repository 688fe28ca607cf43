import Foundation
import Testing

/// The rules for container names on the command line, and how `container list` lays them out.
@Suite(.timeLimit(.minutes(15))) struct ContainerNameCommandTests {
    @Test func namesThatBreakTheRulesAreUsageErrors() throws {
        let scratch = try Scratch()
        #expect(try scratch.run("container", "create", "Dup", "--home", "home").status == 0)
        let cases: [(arguments: [String], says: String)] = [
            (["create", ""], "at least one character"),
            (["create", String(repeating: "x", count: 256)], "at most 255 characters"),
            (["create", "   "], "a name must have a visible character, not only white space"),
            (["create", " x "], "may not begin or end with white space; did you mean 'x'?"),
            (["create", "tab\there"], "U+0009"),
            (["clone", "Dup", " copy"], "may not begin or end with white space"),
            (["update", "Dup", "--name", "   "], "not only white space"),
        ]
        for item in cases {
            let outcome = try scratch.run(["container"] + item.arguments + ["--home", "home"])
            #expect(outcome.status == 2, "\(item.arguments) exited \(outcome.status): \(outcome.standardError)")
            #expect(outcome.standardError.contains(item.says), "\(item.arguments): \(outcome.standardError)")
        }
        #expect(try names(in: scratch) == ["DEFAULT", "Dup"])
    }

    @Test func namesDifferingOnlyByCaseFromAnotherAreRefused() throws {
        let scratch = try Scratch()
        #expect(try scratch.run("container", "create", "Dup", "--home", "home").status == 0)
        for (arguments, existing) in [
            (["create", "default"], "DEFAULT"), (["create", "dup"], "Dup"), (["clone", "Dup", "DUP"], "Dup"),
            (["update", "Dup", "--name", "Default"], "DEFAULT"),
        ] {
            let outcome = try scratch.run(["container"] + arguments + ["--home", "home"])
            #expect(outcome.status == 1, "\(arguments) exited \(outcome.status)")
            #expect(outcome.standardError.contains("differs only by case from the container '\(existing)'"), "\(outcome.standardError)")
        }
        #expect(try names(in: scratch) == ["DEFAULT", "Dup"])
        // So "activate default" can only mean DEFAULT; a container may change the case of its own name.
        #expect(try scratch.run("container", "update", "Dup", "--name", "DUP", "--home", "home").status == 0)
        #expect(try names(in: scratch) == ["DEFAULT", "DUP"])
    }

    @Test func argumentsThatAreNotUTF8AreRefused() throws {
        let scratch = try Scratch()
        let outcome = try scratch.run(shell: #""$ENVSCRIPT" container create "$(printf 'a\377\376b')" --home home"#)
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("argument 3 ('a"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("is not valid UTF-8"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("home").path), "nothing ran")
    }

    @Test func theListLinesUpNamesByTheColumnsTheyTakeOnATerminal() throws {
        let scratch = try Scratch()
        // Five emoji outside the Basic Multilingual Plane (10 columns, 10 UTF-16 units, 5 characters),
        // CJK (2 columns each), and an accent made of a combining mark (no column of its own).
        let names = ["😀😀😀😀😀", "日本語", "cafe\u{301}"]
        var uuids = ["DEFAULT": "00000000-0000-0000-0000-000000000000"]
        for name in names {
            let created = try scratch.run("container", "create", name, "--home", "home")
            #expect(created.status == 0)
            uuids[name] = created.standardOutput.trimmingCharacters(in: .newlines)
        }
        let lines = try scratch.run("container", "list", "--home", "home").standardOutput.split(separator: "\n").map(String.init)
        // The NAME column is 10 columns wide, then two spaces.
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("   NAME        UUID"), "\(lines[0])")
        #expect(lines[1].hasPrefix("*  DEFAULT     \(uuids["DEFAULT"]!)"), "\(lines[1])")
        #expect(lines[2].hasPrefix("   😀😀😀😀😀  \(uuids[names[0]]!)"), "\(lines[2])")
        #expect(lines[3].hasPrefix("   日本語      \(uuids[names[1]]!)"), "\(lines[3])")
        #expect(lines[4].hasPrefix("   cafe\u{301}        \(uuids[names[2]]!)"), "\(lines[4])")
    }

    private func names(in scratch: Scratch) throws -> [String?] {
        let list = try scratch.run("container", "list", "--json", "--home", "home")
        let records = try #require(ContainerListJSON(list.standardOutput), "\(list.standardOutput)").containers
        return records.map { $0["name"] as? String }
    }
}
