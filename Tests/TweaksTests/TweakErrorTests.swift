import Testing
import Tweaks

/// ``TweakError`` as an app sees it: a code to compare, a message, and the details as properties.
@Suite struct TweakErrorTests {
    private struct StoreGone: Error {}

    @Test func eachReasonHasItsCodeAndDetails() {
        let missing = TweakError.notFound(feature: "checkout", variable: "max_items", misses: [])
        #expect(missing.code == .notFound && missing.feature == "checkout" && missing.variable == "max_items")
        #expect(missing.file == nil && missing.line == nil && missing.underlyingError == nil)
        let malformed = TweakError.invalidJSON(file: "/app/Tweaks.json", line: 3, column: 14, key: nil, reason: "expected a value")
        #expect(malformed.code == .invalidJSON && malformed.file == "/app/Tweaks.json" && malformed.line == 3 && malformed.column == 14)
        #expect(malformed.feature == nil)
        let failed = TweakError.providerFailed(provider: "overrides", feature: nil, variable: nil, underlying: StoreGone())
        #expect(failed.code == .providerFailed && failed.underlyingError is StoreGone && failed.feature == nil)
        #expect(TweakError.Code.remoteClosed.name == "remoteClosed" && "\(TweakError.Code.timedOut)" == "timedOut")
    }

    @Test func theMessageIsTheDescription() {
        let readOnly = TweakError.providerNotMutable(name: "defaults")
        #expect(readOnly.message == "provider 'defaults' is read-only; write to an overrides or ephemeral provider")
        #expect(readOnly.description == readOnly.message && readOnly.errorDescription == readOnly.message)
    }

    @Test func aSwitchOverTheCodeHasADefault() {
        func status(_ error: TweakError) -> Int {
            switch error.code {
            case .notFound: 404
            case .typeMismatch, .typeRefused: 400
            default: 500 // a release may add codes
            }
        }
        #expect(status(.notFound(feature: "f", variable: "v", misses: [])) == 404)
        #expect(status(.typeRefused(feature: "f", variable: "v", expected: "int", given: .bool(true), definedBy: "defaults")) == 400)
        #expect(status(.remoteClosed(url: "https://example.com/tweaks.json")) == 500)
    }
}
