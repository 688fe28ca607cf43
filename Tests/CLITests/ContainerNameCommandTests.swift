import Foundation
import Testing

/// The rules for container names on the command line.
@Suite struct ContainerNameCommandTests {
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

    private func names(in scratch: Scratch) throws -> [String?] {
        let list = try scratch.run("container", "list", "--json", "--home", "home")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        return records.map { $0["name"] as? String }
    }
}
