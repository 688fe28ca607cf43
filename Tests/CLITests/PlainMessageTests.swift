import Foundation
import Testing

/// What the commands say: a confirmation of what `tweak set` did, a tweaks file's problem in words at
/// its place, a hook's refusal without a traceback nobody asked for, a mistyped subcommand's near names.
@Suite(.timeLimit(.minutes(15))) struct PlainMessageTests {
    @Test func setSaysWhatItSetAndWhere() throws {
        let scratch = try Scratch()
        try ShopProject.write(in: scratch)
        let set = try scratch.run("tweak", "set", "checkout", "max_items", "10")
        #expect(set.status == 0, "\(set.standardError)")
        #expect(set.standardOutput == "checkout.max_items = 10 (override in container DEFAULT)\n")
        #expect(try scratch.run("container", "create", "Debug").status == 0)
        #expect(try scratch.run("container", "activate", "Debug").status == 0)
        let string = try scratch.run("tweak", "set", "checkout", "button_color", "red")
        #expect(string.standardOutput == "checkout.button_color = \"red\" (override in container Debug)\n", "\(string.standardOutput)")
    }

    @Test func aHookThatRefusesSaysWhyWithoutATraceback() throws {
        let scratch = try Scratch()
        try ShopProject.write(in: scratch)
        #expect(try scratch.run("container", "create", "Frozen").status == 0)
        let refused = try scratch.run("container", "activate", "Frozen")
        #expect(refused.status == 1)
        #expect(refused.standardError == """
            the container switch was cancelled, nothing on disk changed: envscript.lua:5: Frozen is kept for the release check; clone it instead

            """, "\(refused.standardError)")
        // Asked for, the traceback is there.
        let debug = try scratch.run(["container", "activate", "Frozen"], environment: ["ENVSCRIPT_LOG_LEVEL": "debug"])
        #expect(debug.status == 1)
        #expect(debug.standardError.contains("envscript.lua:5: Frozen is kept for the release check; clone it instead\nstack traceback:"))
        // A mistake in a hook (not a refusal) keeps its traceback.
        try scratch.write("envscript.lua", "container.on_will_change(function(to) return to.missing.name end)\n")
        let mistake = try scratch.run("container", "activate", "Frozen")
        #expect(mistake.status == 1)
        #expect(mistake.standardError.contains("stack traceback:"), "\(mistake.standardError)")
    }

    @Test func aMistypedSubcommandGetsTheNearNames() throws {
        let scratch = try Scratch()
        let activte = try scratch.run("container", "activte", "Debug")
        #expect(activte.status == 2)
        #expect(activte.standardError.contains("unknown subcommand 'activte' of 'envscript container'; did you mean 'activate'?"), "\(activte.standardError)")
        let contaner = try scratch.run("contaner", "list")
        #expect(contaner.status == 2)
        #expect(contaner.standardError.contains("unknown subcommand 'contaner' of 'envscript'; did you mean 'container'?"), "\(contaner.standardError)")
        let far = try scratch.run("tweak", "frobnicate")
        #expect(far.status == 2)
        #expect(far.standardError.contains("unknown subcommand 'frobnicate' of 'envscript tweak'; its subcommands are list, get, set"), "\(far.standardError)")
        // Help and options are ArgumentParser's as before.
        #expect(try scratch.run("help", "container").status == 0)
        #expect(try scratch.run("container", "--bogus").standardError.contains("Unknown option '--bogus'"))
    }

    @Test func aTweaksFileProblemIsSaidInWordsAtItsPlace() throws {
        let scratch = try Scratch()
        try scratch.write("bad.json", "{\n  \"checkout\": {\n    \"x\": { \"Value\": 1 }\n  },\n}\n")
        try scratch.write("envscript.lua", "tweak.stack{ tweak.overrides(), tweak.json('bad.json') }\n")
        let comma = try scratch.run("tweak", "list")
        #expect(comma.status == 2)
        #expect(comma.standardError.contains("bad.json:4:4: trailing comma before '}'; JSON allows none, remove it"), "\(comma.standardError)")

        try scratch.write("envscript.lua", "tweak.stack{ tweak.overrides(), tweak.json('gone.json') }\n")
        let missing = try scratch.run("tweak", "list")
        #expect(missing.status == 2)
        let path = scratch.url.appendingPathComponent("gone.json").path
        #expect(missing.standardError.contains("cannot read tweak file '\(path)': no such file or folder"), "\(missing.standardError)")
        #expect(!ErrorWordingTests.soundsLikeFoundation(missing.standardError))
        let validate = try scratch.run("tweak", "validate", "gone.json")
        #expect(validate.status == 1)
        #expect(validate.standardOutput.contains("no such file or folder") || validate.standardError.contains("no such file or folder"), "\(validate.standardOutput)\(validate.standardError)")
        #expect(!ErrorWordingTests.soundsLikeFoundation(validate.standardOutput + validate.standardError))
        try scratch.write("config.json", #"{"accessorName": "Flags"}"#)
        let generate = try scratch.run("generate", "accessors", "--tweaks", "gone.json", "--config", "config.json", "--output", "out")
        #expect(generate.status == 1)
        #expect(generate.standardError.contains("\(path): error: cannot read the tweaks file: no such file or folder"), "\(generate.standardError)")
    }
}
