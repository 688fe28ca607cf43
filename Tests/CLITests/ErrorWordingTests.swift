import Foundation
import Testing

/// What `envscript` says when a file named on its command line cannot be used: what is really wrong,
/// in plain words, never Foundation's `The operation could not be completed. (NSCocoaErrorDomain …)`.
@Suite(.timeLimit(.minutes(15))) struct ErrorWordingTests {
    /// Whether `text` holds Foundation's wording instead of envscript's own.
    static func soundsLikeFoundation(_ text: String) -> Bool {
        text.contains("NSCocoaErrorDomain") || text.contains("The operation could not be completed") || text.contains("Error Domain=")
    }

    @Test func devNullIsAnEmptyScriptAndStreamsAreRead() throws {
        let scratch = try Scratch()
        let run = try scratch.run("run", "/dev/null")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.isEmpty)
        let check = try scratch.run("check", "/dev/null")
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput == "/dev/null: ok\n")
    }

    @Test func scriptsThatAreNotFilesSayWhatTheyAre() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("d"), withIntermediateDirectories: true)
        // A folder is searched for spec files, as busted's ROOT is.
        let folder = try scratch.run("run", "d")
        #expect(folder.status == 2)
        #expect(folder.standardError.contains("no spec file under d: none is named like '_spec' (--pattern)"), "\(folder.standardError)")
        let script = try scratch.run("check", "d")
        #expect(script.status == 2)
        #expect(script.standardError.contains("cannot read script 'd': it is a folder"), "\(script.standardError)")
        let missing = try scratch.run("run", "gone/script.lua")
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read script 'gone/script.lua': no such file or folder"))
    }

    @Test func fileErrorsOfFoundationAreSaidInPlainWords() throws {
        let scratch = try Scratch()
        try scratch.write("plain.lua", "print('ran')\n")
        try scratch.write("file", "not a folder\n")

        let home = try scratch.run("run", "--home", "file/home", "plain.lua")
        #expect(home.status == 2)
        #expect(home.standardError.contains("file/home' as the home folder: a part of the path is not a folder"), "\(home.standardError)")
        #expect(!Self.soundsLikeFoundation(home.standardError), "\(home.standardError)")

        let types = try scratch.run("types", "--output", "file/types")
        #expect(types.status != 0)
        #expect(types.standardError.contains("a part of the path is not a folder"), "\(types.standardError)")
        #expect(!Self.soundsLikeFoundation(types.standardError), "\(types.standardError)")
    }
}
