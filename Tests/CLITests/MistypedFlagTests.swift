import Foundation
import Testing

/// A flag no provider defines is a mistyped one until said otherwise: `tweak set` refuses it (or with
/// `--force` warns), and `tweak set`, `get` and `explain` suggest the near names.
@Suite(.timeLimit(.minutes(15))) struct MistypedFlagTests {
    @Test func setOfAFlagNoProviderDefinesIsRefusedWithTheNearNames() throws {
        let scratch = try Scratch()
        try ShopProject.write(in: scratch)
        let typo = try scratch.run("tweak", "set", "checkout", "buton_color", "red")
        #expect(typo.status == 1)
        #expect(
            typo.standardError == "refused: no provider defines checkout.buton_color; did you mean checkout.button_color? (--force sets it anyway)\n",
            "\(typo.standardError)")
        #expect(try scratch.run("tweak", "list-overrides").standardOutput.split(separator: "\n").count == 1, "nothing was stored")

        let forced = try scratch.run("tweak", "set", "checkout", "buton_color", "red", "--force")
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(forced.standardError.contains("warning: no provider defines checkout.buton_color; did you mean checkout.button_color?"))
        #expect(try scratch.run("tweak", "get", "checkout", "buton_color").standardOutput == "red\n")
        // A flag the stack defines is set as before, without a word on standard error.
        let known = try scratch.run("tweak", "set", "checkout", "button_color", "green")
        #expect(known.status == 0 && known.standardError.isEmpty, "\(known.standardError)")
    }

    @Test func getAndExplainOfAMistypedFlagSuggestTheNearNames() throws {
        let scratch = try Scratch()
        try ShopProject.write(in: scratch)
        let get = try scratch.run("tweak", "get", "checkout", "button_colr")
        #expect(get.status == 1)
        #expect(get.standardError.contains("tweak 'checkout.button_colr' not found"), "\(get.standardError)")
        #expect(get.standardError.hasSuffix("; did you mean checkout.button_color?\n"), "\(get.standardError)")
        let explain = try scratch.run("tweak", "explain", "chekout", "max_items")
        #expect(explain.status == 1)
        #expect(explain.standardError.contains("no provider answers chekout.max_items; did you mean checkout.max_items?"), "\(explain.standardError)")
        // Nothing near: no suggestion.
        let far = try scratch.run("tweak", "get", "search", "engine")
        #expect(far.status == 1)
        #expect(!far.standardError.contains("did you mean"))
    }

    @Test func withoutAStackTheCommandSaysSoInsteadOfRefusing() throws {
        let scratch = try Scratch()
        let set = try scratch.run("tweak", "set", "checkout", "buton_color", "red")
        #expect(set.status == 0, "\(set.standardError)")
        #expect(set.standardError.contains("note: no start-up script is loaded"), "\(set.standardError)")
        #expect(set.standardError.contains("nothing defines flags to check checkout.buton_color against"))
        let list = try scratch.run("tweak", "list")
        #expect(list.status == 0)
        #expect(list.standardError.contains("only the overrides of the active container: showing the overrides only"), "\(list.standardError)")
    }
}
