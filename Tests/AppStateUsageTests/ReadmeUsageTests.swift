import AppState
import EnvScript
import Foundation
import Locking
import Testing

/// AppState's README usage, with ids added, over a real host.
@Suite struct ReadmeUsageTests {
    @Test func stateIsReadAndWrittenThroughTheStaticAccessorAndTheWrapper() throws {
        let usage = try UsageHost()
        try Application.withCurrent(usage.application) { () throws in
            let usernameState: Application.State = Application.state(\.username)
            #expect(usernameState.value == "Leif")
            usernameState.value = "0xL"
            #expect(Application.state(\.username).value == "0xL")

            let model = ViewModel()
            #expect(model.username == "0xL")
            model.username = "Hello!"
            #expect(Application.state(\.username).value == "Hello!")
            #expect(model.$username.key == "username")
            #expect(!model.isLoading)

            model.token = "t-1"
            #expect(try Application.storedState(\.token).read() == "t-1")
            model.notes = ["first"]
            model.notes.append("second")
            #expect(try usage.application.fileState("notes", initial: [String]()).read() == ["first", "second"])
            #expect(model.userToken == nil)
            model.userToken = "secret"
            #expect(try Application.secureState(\.userToken).read() == "secret")
        }
    }

    @Test func slicesOfAStructAnOptionalAndADictionary() throws {
        let usage = try UsageHost()
        try Application.withCurrent(usage.application) { () throws in
            let model = ViewModel()
            #expect(!model.isDarkModeEnabled)
            model.isDarkModeEnabled = true
            #expect(model.darkModeAsSaved)
            #expect(try Application.storedState(\.preferences).read() == Preferences(isDarkModeEnabled: true))

            // An optional root: nil parts, and writes that change nothing while it is nil.
            #expect(model.id == nil && model.optionalUsername == nil && model.lastLogin == nil)
            let userChanges = Locked(0)
            let observation = Application.state(\.user).observe { _ in userChanges.withLock { $0 += 1 } }
            defer { observation.cancel() }
            model.optionalUsername = "ignored"
            #expect(Application.state(\.user).value == nil)
            #expect(userChanges.withLock { $0 } == 0, "a write to a slice of nil state changes nothing")

            let id = UUID()
            Application.state(\.user).value = User(id: id, username: "leif", nickname: nil, metadata: [:])
            #expect(model.id == id)
            #expect(model.optionalUsername == "leif")
            model.optionalUsername = "0xL"
            model.nickname = "L"
            model.lastLogin = "yesterday"
            #expect(Application.state(\.user).value == User(id: id, username: "0xL", nickname: "L", metadata: ["lastLogin": "yesterday"]))
            model.nickname = nil
            model.optionalUsername = nil // a non-optional part keeps its value
            #expect(Application.state(\.user).value?.nickname == nil)
            #expect(Application.state(\.user).value?.username == "0xL")

            #expect(model.error == nil)
            model.error = "Something failed"
            #expect(Application.state(\.dictionary).value == ["error": "Something failed"])
            model.error = nil
            #expect(Application.state(\.dictionary).value == [:])
        }
    }

    @Test func aDependencyItsSliceAndItsHeldOverride() throws {
        let usage = try UsageHost()
        try Application.withCurrent(usage.application) { () throws in
            let model = ViewModel()
            #expect(Application.dependency(\.networkService).fetch() == "from the network")
            #expect(model.networkService.fetch() == "from the network")
            #expect(model.serviceName == "live")

            model.mode = "dark"
            #expect(Application.dependency(\.settingsService).mode == "dark")
            #expect(model.mode == "dark")

            let networkOverride = Application.override(\.networkService, with: MockNetworkService())
            #expect(Application.dependency(\.networkService).fetch() == "from the mock")
            #expect(model.serviceName == "mock")
            do {
                // Held overrides nest, and dropping the token undoes it.
                let inner = Application.override(\.networkService, with: MockNetworkService(label: "inner mock"))
                #expect(model.networkService.fetch() == "from the inner mock")
                withExtendedLifetime(inner) {}
            }
            #expect(model.networkService.fetch() == "from the mock")

            // Cancelled out of order, each undoes only itself.
            let second = Application.override(\.networkService, with: MockNetworkService(label: "second"))
            networkOverride.cancel()
            #expect(model.serviceName == "second")
            second.cancel()
            #expect(model.serviceName == "live")
            second.cancel() // again: nothing
            #expect(model.serviceName == "live")
        }
    }

    @Test func aScopedOverrideWinsOverAHeldOneWithinItsTask() throws {
        let usage = try UsageHost()
        try Application.withCurrent(usage.application) { () throws in
            let held = Application.override(\.networkService, with: MockNetworkService(label: "held"))
            defer { held.cancel() }
            let scoped: any NetworkServiceType = MockNetworkService(label: "scoped")
            try usage.application.dependencies.override("networkService", with: scoped) {
                #expect(Application.dependency(\.networkService).name == "scoped")
            }
            #expect(Application.dependency(\.networkService).name == "held")
        }
    }

    @Test func aScriptReadsAndWritesTheStateSwiftDeclared() throws {
        let usage = try UsageHost()
        try Application.withCurrent(usage.application) { () throws in
            let model = ViewModel()
            model.username = "0xL"
            model.token = "from Swift"
            #expect(try usage.host.execute("return state.get('username')").first == .string("0xL"))
            #expect(try usage.host.execute("return state.get('token')").first == .string("from Swift"))
            try usage.host.execute("state.set('username', 'from Lua')")
            #expect(model.username == "from Lua")
        }
    }

    @Test func aScriptDeclaringASwiftKeyGetsTheSwiftValueAndWritesStructsAsTables() throws {
        let usage = try UsageHost()
        let app = usage.application
        app.username.value = "from Swift"
        app.preferences.value = Preferences(isDarkModeEnabled: false)
        let counter = try app.state("counter", initial: 0.5)

        // Declaring from Lua a key Swift declared with the same kind keeps Swift's type and value.
        #expect(try usage.host.execute("return state.memory('username', 'lua initial')").first == .string("from Swift"))
        #expect(try usage.host.execute("return state.stored('preferences', {}).isDarkModeEnabled").first == .boolean(false))
        #expect(app.username.value == "from Swift")
        // Another kind is still refused.
        #expect(throws: (any Error).self) { try usage.host.execute("state.file('username', 'x')") }

        // A table becomes the Codable struct, an integer the Double.
        try usage.host.execute("state.set('preferences', {isDarkModeEnabled = true})")
        #expect(app.preferences.value == Preferences(isDarkModeEnabled: true))
        try usage.host.execute("state.set('counter', 3)")
        #expect(counter.value == 3.0)
        try usage.host.execute("state.set('counter', math.huge)")
        #expect(counter.value == .infinity)
        // Lua's one empty table is an empty array where the declared type wants one.
        app.notes.value = ["one"]
        try usage.host.execute("state.set('notes', {})")
        #expect(app.notes.value == [])
        try usage.host.execute("state.set('notes', {'a', 'b'})")
        #expect(app.notes.value == ["a", "b"])

        // A table that does not fit names the field and changes nothing.
        let error = try #require(throws: (any Error).self) {
            try usage.host.execute("state.set('preferences', {isDarkModeEnabled = 'yes'})")
        }
        #expect("\(error)".contains("isDarkModeEnabled"), "\(error)")
        #expect("\(error)".contains("preferences"), "\(error)")
        #expect(app.preferences.value == Preferences(isDarkModeEnabled: true))
    }

    @Test func theSameDeclarationGivesTheSameStateAndAConflictingOneIsRefusedByTheThrowingForm() throws {
        let usage = try UsageHost()
        let app = usage.application
        app.username.value = "once"
        #expect(app.username.value == "once")
        #expect(try app.state("username", initial: "other initial").read() == "once")
        #expect(throws: AppStateError.self) { try app.storedState("username", initial: "") }
        #expect(throws: AppStateError.self) { try app.state("username", initial: 0) }
    }

    @Test func aDeclarationsInitialValueMayReadOtherState() throws {
        let usage = try UsageHost()
        usage.application.username.value = "Ada"
        #expect(usage.application.greeting.value == "Hello, Ada")
    }

    @Test func aTaskStartedInsideABindingKeepsItAfterTheScopeEnds() async throws {
        let usage = try UsageHost()
        let bound = usage.application
        let started = Application.withCurrent(bound) {
            Task {
                try await Task.sleep(for: .milliseconds(50))
                return Application.current === bound
            }
        }
        #expect(try await started.value)
    }

    @Test func withoutABindingTheTaskSeesTheProcesssCurrentApplication() async throws {
        let usage = try UsageHost()
        let bound = usage.application
        await Application.withCurrent(bound) {
            #expect(Application.current === bound)
            // Child tasks inherit the binding.
            let inChild = await Task { Application.current === bound }.value
            #expect(inChild)
        }
        // A detached task does not.
        let detached = await Task.detached { Application.current === bound }.value
        #expect(!detached)
    }
}
