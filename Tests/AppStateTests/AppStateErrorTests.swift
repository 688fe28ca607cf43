import AppState
import Testing

/// ``AppStateError`` as an app sees it: a code to compare, a message, and the details as properties.
@Suite struct AppStateErrorTests {
    private struct NoDatabase: Error {}

    @Test func eachReasonHasItsCodeAndDetails() {
        let unknown = AppStateError.unknownKey("username")
        #expect(unknown.code == .unknownKey && unknown.key == "username" && unknown.underlyingError == nil)
        let factory = AppStateError.factoryFailed(name: "database", underlying: NoDatabase())
        #expect(factory.code == .factoryFailed && factory.key == "database" && factory.underlyingError is NoDatabase)
        #expect(AppStateError.dependencyCycle(["a", "b", "a"]).key == "a")
        let keyFile = AppStateError.keyFilePermissions(path: "/etc/app.key", mode: 0o100644)
        #expect(keyFile.code == .keyFilePermissions && keyFile.key == nil)
        #expect(AppStateError.Code.storage.name == "storage" && "\(AppStateError.Code.io)" == "io")
    }

    @Test func theMessageIsTheDescription() {
        let missing = AppStateError.unknownDependency("database")
        #expect(missing.message == "no dependency is registered under 'database'; register it before getting or overriding it")
        #expect(missing.description == missing.message && missing.errorDescription == missing.message)
    }

    @Test func aSwitchOverTheCodeHasADefault() {
        func status(_ error: AppStateError) -> Int {
            switch error.code {
            case .unknownKey: 404
            case .invalidKey, .kindMismatch, .typeMismatch: 400
            default: 500 // a release may add codes
            }
        }
        #expect(status(.unknownKey("username")) == 404)
        #expect(status(.typeMismatch(key: "count", declared: "Int", requested: "String")) == 400)
        #expect(status(.secureKeyMissing(key: "token")) == 500)
    }
}
