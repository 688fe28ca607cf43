import Foundation
import Testing

/// `envscript tweak`, against the built binary.
@Suite(.timeLimit(.minutes(15))) struct TweakCommandTests {
    @Test func setGetListAndDeleteThroughTheOverrides() throws {
        let scratch = try Scratch()
        #expect(try scratch.run("tweak", "set", "checkout", "enabled", "true").status == 0)
        #expect(try scratch.run("tweak", "set", "checkout", "limit", "5").status == 0)
        #expect(try scratch.run("tweak", "set", "checkout", "code", "007", "--string").status == 0)
        #expect(try scratch.run("tweak", "get", "checkout", "limit").standardOutput == "5\n")
        #expect(try scratch.run("tweak", "get", "checkout", "code").standardOutput == "007\n")

        let list = try scratch.run("tweak", "list")
        #expect(list.standardOutput.split(separator: "\n").first?.hasPrefix("FEATURE") == true)
        #expect(list.standardOutput.contains("enabled"))

        let json = try scratch.run("tweak", "list", "--json")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(records.count == 3)
        let code = try #require(records.first { $0["variable"] as? String == "code" })
        #expect(code["value"] as? String == "007")
        #expect(code["source"] as? String == "overrides")

        #expect(try scratch.run("tweak", "delete", "checkout", "limit").status == 0)
        let gone = try scratch.run("tweak", "get", "checkout", "limit")
        #expect(gone.status == 1)
        #expect(gone.standardError.contains("checkout.limit"))
        #expect(gone.standardError.contains("not found"))
        // The default home is .envscript/home under the current folder.
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent(".envscript/home").path))
    }

    @Test func theStackComesFromTheStartUpScript() throws {
        let scratch = try Scratch()
        try scratch.write("flags.json", #"{ "ui": { "color": { "Value": "blue", "Title": "Colour" } } }"#)
        try scratch.write("envscript.lua", "tweak.stack{ tweak.overrides(), tweak.json('flags.json', 'file') }")
        let value = try scratch.run("tweak", "get", "ui", "color", "--json")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(value.standardOutput.utf8)) as? [String: Any])
        #expect(record["source"] as? String == "file")
        #expect(record["title"] as? String == "Colour")
        #expect(try scratch.run("tweak", "set", "ui", "color", "red").status == 0)
        #expect(try scratch.run("tweak", "get", "ui", "color").standardOutput == "red\n")
        // Overrides belong to a home: another home sees the file's value, and without the start-up
        // script only its (empty) overrides are left.
        let home = scratch.url.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        #expect(try scratch.run("tweak", "get", "ui", "color", "--home", home).standardOutput == "blue\n")
        #expect(try scratch.run("tweak", "get", "ui", "color", "--home", home, "--no-init").status == 1)
    }

    @Test func structuredValuesGoInAsJSONAndComeOutAsJSONKeepingTheirType() throws {
        let scratch = try Scratch()
        try scratch.write("flags.json", #"{ "checkout": { "layout": { "Value": { "columns": 2, "style": "grid" } } } }"#)
        try scratch.write("envscript.lua", "tweak.stack{ tweak.overrides(), tweak.json('flags.json', 'shipped') }")
        #expect(try scratch.run("tweak", "get", "checkout", "layout").standardOutput == #"{"columns":2,"style":"grid"}"# + "\n")

        let set = try scratch.run("tweak", "set", "checkout", "layout", "--json", #"{"columns": 3, "style": "list", "tags": ["a", "b"]}"#)
        #expect(set.status == 0, "\(set.standardError)")
        #expect(try scratch.run("tweak", "get", "checkout", "layout").standardOutput == #"{"columns":3,"style":"list","tags":["a","b"]}"# + "\n")
        let record = try scratch.run("tweak", "get", "checkout", "layout", "--json")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(record.standardOutput.utf8)) as? [String: Any])
        #expect((parsed["value"] as? [String: Any])?["columns"] as? Int == 3)
        #expect(parsed["source"] as? String == "overrides")

        let refused = try scratch.run("tweak", "set", "checkout", "layout", "3")
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("tweak 'checkout.layout' is an object (as shipped defines it), not an int (3)"), "\(refused.standardError)")
        let notJSON = try scratch.run("tweak", "set", "checkout", "layout", "--json", "{columns: 3}")
        #expect(notJSON.status == 2)
        #expect(notJSON.standardError.contains("--json: '{columns: 3}' is not a JSON value"), "\(notJSON.standardError)")
        let both = try scratch.run("tweak", "set", "checkout", "layout", "--json", "--string", "1")
        #expect(both.status == 2)
        #expect(try scratch.run("tweak", "get", "checkout", "layout").standardOutput.contains(#""columns":3"#), "nothing refused was stored")
    }

    @Test func overridesAreListedAndResetTogether() throws {
        let scratch = try Scratch()
        #expect(try scratch.run("tweak", "set", "ui", "dark", "true").status == 0)
        #expect(try scratch.run("tweak", "set", "checkout", "layout", "--json", #"{"columns": 2}"#).status == 0)
        let table = try scratch.run("tweak", "list-overrides")
        #expect(table.standardOutput.contains(#"{"columns":2}"#) && table.standardOutput.contains("dark"), "\(table.standardOutput)")
        let json = try scratch.run("tweak", "list-overrides", "--json")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(records.map { $0["variable"] as? String } == ["layout", "dark"])

        #expect(try scratch.run("tweak", "delete", "ui", "dark").status == 0)
        #expect(try scratch.run("tweak", "delete-all-overrides").standardOutput == "removed 1 override\n")
        let after = try scratch.run("tweak", "list-overrides", "--json")
        #expect((try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as? [Any])?.isEmpty == true, "\(after.standardOutput)")
        #expect(try scratch.run("tweak", "delete-all-overrides").standardOutput == "removed 0 overrides\n")
        #expect(try scratch.run("tweak", "delete-all-overrides", "ui").status == 2)
        // The names of before the vocabulary was made one are gone (usage error), not silently kept.
        #expect(try scratch.run("tweak", "overrides").status == 2)
        #expect(try scratch.run("tweak", "reset", "--all").status == 2)
    }

    @Test func explainShowsEveryProviderAndTheWinner() throws {
        let scratch = try Scratch()
        try scratch.write("flags.json", #"{ "ui": { "color": { "Value": "blue" } } }"#)
        try scratch.write("envscript.lua", """
            local broken = tweak.provider{ name = 'broken', get = function() error('the server is down') end }
            tweak.stack{ broken, tweak.overrides(), tweak.json('flags.json', 'shipped'), tweak.ephemeral({ ui = { color = 'grey' } }, 'fallback') }
            """)
        let text = try scratch.run("tweak", "explain", "ui", "color")
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "ui.color, providers from the highest:")
        #expect(lines.contains { $0.contains("broken") && $0.contains("failed:") && $0.contains("the server is down") }, "\(text.standardOutput)")
        #expect(lines.contains { $0.contains("overrides") && $0.hasSuffix("missing") })
        #expect(lines.contains { $0.contains("shipped") && $0.contains(#"answers "blue""#) })
        #expect(lines.contains { $0.contains("fallback") && $0.contains(#"has "grey", below the answer"#) })
        #expect(lines.last == #"answer: "blue" from shipped"#)

        let json = try scratch.run("tweak", "explain", "ui", "color", "--json")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let steps = try #require(record["steps"] as? [[String: Any]])
        #expect(steps.map { $0["outcome"] as? String } == ["failed", "missing", "answered", "shadowed"])
        #expect((record["answer"] as? [String: Any])?["source"] as? String == "shipped")

        let none = try scratch.run("tweak", "explain", "ui", "nope", "--json")
        #expect(none.status == 1)
        #expect(none.standardError.contains("no provider answers ui.nope"))
        #expect(none.standardOutput.contains(#""answer" : null"#), "\(none.standardOutput)")
    }

    @Test func setRefusesAnotherTypeThanTheFlagsUnlessForced() throws {
        let scratch = try Scratch()
        try scratch.write("read.lua", "print(tweak.value('checkout', 'max_items', 0) + 1)")
        #expect(try scratch.run("tweak", "set", "checkout", "max_items", "5").status == 0)
        // The overrides alone define the flag: their integer is its type.
        let refused = try scratch.run("tweak", "set", "checkout", "max_items", "not a number")
        #expect(refused.status == 1)
        #expect(refused.standardError.contains(
            "refused: tweak 'checkout.max_items' is an int (as overrides defines it), not a string (\"not a number\"); give a value of that type, or add --force to store a string anyway"),
            "\(refused.standardError)")
        #expect(try scratch.run("tweak", "get", "checkout", "max_items").standardOutput == "5\n")
        #expect(try scratch.run("run", "--home", ".envscript/home", "read.lua").standardOutput == "6\n")
        // The type the stack answers with, also when a file defines it.
        try scratch.write("flags.json", #"{ "checkout": { "express": { "Value": true } } }"#)
        try scratch.write("envscript.lua", "tweak.stack{ tweak.overrides(), tweak.json('flags.json', 'shipped') }")
        let fromFile = try scratch.run("tweak", "set", "checkout", "express", "3")
        #expect(fromFile.status == 1)
        #expect(fromFile.standardError.contains("is a bool (as shipped defines it), not an int (3)"), "\(fromFile.standardError)")
        // --force stores it all the same.
        #expect(try scratch.run("tweak", "set", "checkout", "max_items", "not a number", "--force").status == 0)
        #expect(try scratch.run("tweak", "get", "checkout", "max_items").standardOutput == "not a number\n")
    }

    @Test func negativeNumbersAreValuesNotOptions() throws {
        let scratch = try Scratch()
        func stored(_ variable: String) throws -> Any? {
            let record = try scratch.run("tweak", "get", "checkout", variable, "--json")
            return try (JSONSerialization.jsonObject(with: Data(record.standardOutput.utf8)) as? [String: Any])?["value"]
        }
        let cases: [(arguments: [String], variable: String, value: Any)] = [
            (["-5"], "discount", -5 as Any), (["-0.5"], "ratio", -0.5), (["-.25", "--provider", "overrides"], "step", -0.25),
            (["-7", "--string"], "code", "-7"), (["--string", "-8"], "label", "-8"),
        ]
        for (arguments, variable, value) in cases {
            let outcome = try scratch.run(["tweak", "set", "checkout", variable] + arguments)
            #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
            #expect("\(try stored(variable) ?? "none")" == "\(value)", "\(arguments)")
        }
        #expect(try scratch.run("tweak", "set", "checkout", "discount", "-6").status == 0)
        #expect(try stored("discount") as? Int == -6)
        // A negative number is not taken for another option's value, nor for a feature.
        #expect(try scratch.run("tweak", "set", "checkout", "discount", "1", "--timeout", "-5").status == 2)
        #expect(try scratch.run("tweak", "set", "-1", "discount", "1").status == 2)
        #expect(try scratch.run("tweak", "keygen", "--key-file", "keys").status == 0)
        let sealed = try scratch.run("tweak", "seal", "-5", "--key-file", "keys")
        #expect(sealed.status == 0, "\(sealed.standardError)")
        #expect(try scratch.run("tweak", "unseal", sealed.standardOutput.trimmingCharacters(in: .newlines), "--key-file", "keys").standardOutput == "-5\n")
    }

    @Test func listMarksASealedValueItsDecryptorCannotOpen() throws {
        let scratch = try Scratch()
        try scratch.write("flags.json", #"{ "api": { "token": { "Value": "c2VjcmV0LWNpcGhlcnRleHQ=", "Encrypted": true } } }"#)
        try scratch.write("envscript.lua", """
            tweak.stack{ tweak.json('flags.json', 'shipped') }
            tweak.decryptor(function(t) error('the key was rotated') end)
            """)
        let list = try scratch.run("tweak", "list")
        #expect(list.status == 0)
        #expect(!list.standardOutput.contains("c2VjcmV0LWNpcGhlcnRleHQ="), "\(list.standardOutput)")
        let row = list.standardOutput.split(separator: "\n").first { $0.hasPrefix("api") }.map(String.init) ?? ""
        #expect(row.contains("<sealed: decryptor failed: envscript.lua:2: the key was rotated>"), "\(row)")
        #expect(row.hasSuffix("shipped"))
    }

    @Test func usageErrorsExitTwo() throws {
        let scratch = try Scratch()
        let missing = try scratch.run("tweak", "get")
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("feature"))
        let badContext = try scratch.run("tweak", "get", "checkout", "--context", #"{"targetingKey": 7}"#)
        #expect(badContext.status == 2)
        #expect(badContext.standardError.contains("--context: the evaluation context is not valid: its targetingKey is an int"), "\(badContext.standardError)")
        let notJSON = try scratch.run("tweak", "explain", "checkout", "--context", "country=DE")
        #expect(notJSON.status == 2)
        #expect(notJSON.standardError.contains("--context: the evaluation context is not valid: it is not JSON"), "\(notJSON.standardError)")
    }
}
