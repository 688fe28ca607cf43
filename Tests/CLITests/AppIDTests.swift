import Foundation
import Testing

/// `envscript` uses the files of the application whose home it opens: the identifier the home records,
/// or `--app-id`.
@Suite(.timeLimit(.minutes(15))) struct AppIDTests {
    static let startupScript = ExampleTests.examples.appendingPathComponent("envscript.lua").path

    /// The JSON of the home's application record, or nil when there is none.
    static func record(in home: URL) throws -> [String: Any]? {
        let url = home.appendingPathComponent(".envscript-containers/application.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// The preferences file of `appID` in the live home, decoded.
    static func preferences(of appID: String, in home: URL) throws -> [String: Any]? {
        let url = home.appendingPathComponent("Library/Preferences/\(appID).plist")
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    }

    /// Whether `text` appears as a string anywhere in a property-list tree.
    static func holds(_ tree: Any?, _ text: String) -> Bool {
        switch tree {
        case let string as String: return string == text
        case let array as [Any]: return array.contains { holds($0, text) }
        case let dictionary as [String: Any]: return dictionary.values.contains { holds($0, text) }
        default: return false
        }
    }

    /// The acceptance test: the app opens its home, the command line changes it without `--app-id`, and
    /// the app sees the change.
    @Test func theCommandLineChangesTheFilesOfTheAppWhoseHomeItIs() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home")
        let firstRun = try EnvScriptProcess.run([home.path, Self.startupScript], in: scratch.url, binary: "ExampleHost")
        #expect(firstRun.status == 0, "\(firstRun.standardError)")
        #expect(firstRun.standardOutput.contains("button colour: blue\n"))
        #expect(try Self.record(in: home)?["applicationID"] as? String == "com.example.shop")

        let set = try scratch.run("tweak", "set", "checkout", "button_color", "red", "--home", home.path)
        #expect(set.status == 0, "\(set.standardError)")
        try scratch.write("login.lua", "state.stored('session.user', '')\nstate.set('session.user', 'cli@example.com')\n")
        let login = try scratch.run("run", "login.lua", "--home", home.path)
        #expect(login.status == 0, "\(login.standardError)")

        let preferences = try #require(try Self.preferences(of: "com.example.shop", in: home))
        let overrides = preferences["EnvScript.TweakOverrides"] as? [String: Any]
        #expect(Self.holds(overrides?["checkout"], "red"))
        #expect(Self.holds(preferences["session.user"], "cli@example.com"))
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("Library/Preferences/envscript.plist").path))
        #expect(try Self.record(in: home)?["applicationID"] as? String == "com.example.shop")

        let secondRun = try EnvScriptProcess.run([home.path, Self.startupScript], in: scratch.url, binary: "ExampleHost")
        #expect(secondRun.status == 0, "\(secondRun.standardError)")
        #expect(secondRun.standardOutput.contains("button colour: red\n"))
        #expect(secondRun.standardOutput.contains("session found: 'cli@example.com'\n"))
    }

    @Test func anotherAppIDIsAUsageErrorThatSaysWhatToDo() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home")
        #expect(try scratch.run("tweak", "set", "f", "v", "1", "--home", home.path, "--app-id", "com.example.shop").status == 0)
        let refused = try scratch.run("tweak", "get", "f", "v", "--home", home.path, "--app-id", "com.example.other")
        #expect(refused.status == 2)
        for part in [home.path, "'com.example.shop'", "'com.example.other'", "application.json", "--app-id com.example.shop"] {
            #expect(refused.standardError.contains(part), "\(part) missing from: \(refused.standardError)")
        }
        let refusedRun = try scratch.run("container", "list", "--home", home.path, "--app-id", "com.example.other")
        #expect(refusedRun.status == 2)
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("Library/Preferences/com.example.other.plist").path))
        // The recorded one, given or not, works.
        #expect(try scratch.run("tweak", "get", "f", "v", "--home", home.path, "--app-id", "com.example.shop").standardOutput == "1\n")
        #expect(try scratch.run("tweak", "get", "f", "v", "--home", home.path).standardOutput == "1\n")

        let invalid = try scratch.run("tweak", "get", "f", "v", "--home", home.path, "--app-id", "a/b")
        #expect(invalid.status == 2)
        #expect(invalid.standardError.contains("--app-id"))
        #expect(invalid.standardError.contains("'/'"))
    }

    @Test func onlyCommandsThatWriteTheAppsDataRecordAnIdentifier() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home")
        // An empty home: commands that only read refuse one that does not exist.
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        #expect(try scratch.run("tweak", "get", "f", "v", "--home", home.path, "--app-id", "com.example.shop").status == 1)
        #expect(try scratch.run("tweak", "list", "--home", home.path).status == 0)
        #expect(try scratch.run("container", "create", "Debug", "--home", home.path).status == 0)
        #expect(try scratch.run("container", "list", "--home", home.path).status == 0)
        #expect(try Self.record(in: home) == nil)

        // The first write records the identifier it used: here the default.
        #expect(try scratch.run("tweak", "set", "f", "v", "1", "--home", home.path).status == 0)
        #expect(try Self.record(in: home)?["applicationID"] as? String == "envscript")
        #expect(try Self.preferences(of: "envscript", in: home) != nil)
        #expect(try scratch.run("tweak", "get", "f", "v", "--home", home.path, "--app-id", "com.example.shop").status == 2)

        // A run records too, with --app-id when given.
        let other = scratch.url.appendingPathComponent("other")
        try scratch.write("noop.lua", "local x = 1\n")
        #expect(try scratch.run("run", "noop.lua", "--home", other.path, "--app-id", "com.example.shop").status == 0)
        #expect(try Self.record(in: other)?["applicationID"] as? String == "com.example.shop")
    }

    @Test func theRecordSurvivesASwitchAndAReset() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home")
        func envscript(_ arguments: String...) throws -> EnvScriptProcess.Outcome {
            try EnvScriptProcess.run(arguments + ["--home", home.path], in: scratch.url)
        }
        #expect(try envscript("tweak", "set", "f", "v", "default", "--app-id", "com.example.shop").status == 0)
        #expect(try envscript("container", "create", "Debug").status == 0)
        #expect(try envscript("container", "activate", "Debug").status == 0)
        #expect(try envscript("tweak", "set", "f", "v", "debug").status == 0)
        #expect(Self.holds(try Self.preferences(of: "com.example.shop", in: home), "debug"))
        #expect(try envscript("container", "activate", "DEFAULT").status == 0)
        #expect(try envscript("tweak", "get", "f", "v").standardOutput == "default\n")

        let reset = try envscript("container", "reset")
        #expect(reset.status == 0, "\(reset.standardError)")
        #expect(try Self.record(in: home)?["applicationID"] as? String == "com.example.shop")
        #expect(try envscript("tweak", "get", "f", "v").standardOutput == "default\n")
        #expect(try envscript("tweak", "get", "f", "v", "--app-id", "envscript").status == 2)
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("Library/Preferences/envscript.plist").path))
    }
}
