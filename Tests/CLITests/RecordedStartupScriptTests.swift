import Foundation
import Testing

/// The home records the start-up script its application loads, and a command run from another folder
/// with `--home` loads it: it sees the application's stack (and its type checks), or says plainly that
/// it sees the overrides only.
@Suite(.timeLimit(.minutes(15))) struct RecordedStartupScriptTests {
    /// The start-up script recorded in `home`, or nil.
    static func recordedScript(in home: URL) throws -> String? {
        try AppIDTests.record(in: home)?["startupScript"] as? String
    }

    @Test func aCommandRunElsewhereLoadsTheScriptTheHomeRecords() throws {
        let scratch = try Scratch()
        let app = try ShopProject.write(in: scratch, folder: "app")
        let home = scratch.url.appendingPathComponent("home")
        let script = app.appendingPathComponent("envscript.lua").resolvingSymlinksInPath().path

        // From the application's folder: the script is found, and a command that writes records it.
        let set = try EnvScriptProcess.run(["tweak", "set", "checkout", "max_items", "10", "--home", home.path], in: app)
        #expect(set.status == 0, "\(set.standardError)")
        #expect(try Self.recordedScript(in: home) == script)

        // From a folder without it: the same stack, and the same refusal of another type.
        let list = try scratch.run("tweak", "list", "--home", home.path)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("button_color"), "\(list.standardOutput)")
        #expect(list.standardOutput.contains("shipped"))
        #expect(list.standardError.isEmpty, "\(list.standardError)")
        let refused = try scratch.run("tweak", "set", "checkout", "max_items", "lots", "--home", home.path)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("is an int (as shipped defines it)"), "\(refused.standardError)")
        #expect(try scratch.run("tweak", "get", "checkout", "max_items", "--home", home.path).standardOutput == "10\n")

        // Gone: said plainly, and the reading commands still work on the overrides.
        try FileManager.default.removeItem(at: app.appendingPathComponent("envscript.lua"))
        let missing = try scratch.run("tweak", "list", "--home", home.path)
        #expect(missing.status == 0, "\(missing.standardError)")
        #expect(missing.standardError.contains("the start-up script \(script) recorded for this home is missing"), "\(missing.standardError)")
        #expect(missing.standardError.contains("only the overrides"))
        #expect(missing.standardOutput.contains("max_items"))
        #expect(!missing.standardOutput.contains("button_color"))
    }

    @Test func theApplicationRecordsItsScriptAndACommandElsewhereSeesItsStack() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home")
        let app = try EnvScriptProcess.run([home.path, AppIDTests.startupScript], in: scratch.url, binary: "ExampleHost")
        #expect(app.status == 0, "\(app.standardError)")
        let script = URL(fileURLWithPath: AppIDTests.startupScript).resolvingSymlinksInPath().path
        #expect(try Self.recordedScript(in: home) == script)

        let list = try scratch.run("tweak", "list", "--home", home.path)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("shipped"), "\(list.standardOutput)")
        let refused = try scratch.run("tweak", "set", "checkout", "max_items", "lots", "--home", home.path)
        #expect(refused.status == 1, "\(refused.standardError)")
        // A command run from another project does not take the application's place.
        let other = try ShopProject.write(in: scratch, folder: "other")
        let fromOther = try EnvScriptProcess.run(["tweak", "set", "checkout", "max_items", "7", "--home", home.path], in: other)
        #expect(fromOther.status == 0, "\(fromOther.standardError)")
        #expect(try Self.recordedScript(in: home) == script)
    }
}
