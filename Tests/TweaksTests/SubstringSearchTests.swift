import Testing
import TestSupport
@testable import Tweaks

/// JsonLogic's `in` over strings: the answer of a plain search, in time linear in both texts.
@Suite struct SubstringSearchTests {
    /// The plain search, backing up over the text: what `in` must agree with.
    private func plainlyContains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomTextsOfAFewLettersAgreeWithAPlainSearch(seed: Int) {
        var random = SeededRandom(seed: seed)
        let letters = Array("abé".utf8)
        for _ in 0..<2_000 {
            let haystack = (0..<Int.random(in: 0...40, using: &random)).map { _ in letters.randomElement(using: &random)! }
            let needle = (0..<Int.random(in: 0...6, using: &random)).map { _ in letters.randomElement(using: &random)! }
            let text = String(decoding: haystack, as: UTF8.self), part = String(decoding: needle, as: UTF8.self)
            #expect(
                SubstringSearch.contains(text, part) == plainlyContains(Array(text.utf8), Array(part.utf8)),
                "\(part.debugDescription) in \(text.debugDescription)")
        }
    }

    @Test func charactersAreComparedAsJavaScriptDoes() {
        #expect(SubstringSearch.contains("e\u{301}", "e"), "a letter under a combining accent is found, as JavaScript finds it")
        #expect(SubstringSearch.contains("ünïcode", "nïc"))
        #expect(!SubstringSearch.contains("abc", "abcd"))
        #expect(SubstringSearch.contains("", ""))
    }

    /// Megabyte texts a plain search would compare about 2.5 × 10¹¹ times: the rule answers at once.
    // The limit leaves room for a test run that keeps this one waiting for a thread (it takes 0.3 s in a
    // debug build); a plain search over these texts takes hours.
    @Test(.timeLimit(.minutes(10))) func theWorstCaseOfAPlainSearchIsLinear() throws {
        let haystack = String(repeating: "a", count: 1 << 20)
        let needle = String(repeating: "a", count: 1 << 19) + "b"
        #expect(!SubstringSearch.contains(haystack, needle))
        #expect(SubstringSearch.contains(haystack + "b", needle))
        // Swift's String.contains takes 2 s over 16 KiB of this one, and hours over a megabyte.
        #expect(!SubstringSearch.contains(haystack, "b" + needle.dropLast()))
        let rule = #"{"in": [{"var": "needle"}, {"var": "haystack"}]}"#
        let data = #"{"needle": ""# + needle + #"", "haystack": ""# + haystack + #""}"#
        #expect(try Rule.evaluate(rule, data: data) == .bool(false))
    }
}
