import AppState
import Containers
import EnvScript
import Foundation
import Locking
import Observation
import Testing

/// The Observation framework sees state changes through `ObservedState`, on Linux too.
@Suite struct ObservedStateTests {
    @Observable final class ProfileModel: @unchecked Sendable {
        let token: ObservedState<Application.StoredState<String>>

        init(_ application: Application) {
            token = ObservedState(application.token)
        }

        var greeting: String { "token: \(token.value)" }
    }

    /// Counts the changes observation tracking reports for `read`, re-arming after each.
    final class ChangeCounter: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }

        func track(_ read: @escaping @Sendable () -> Void) {
            withObservationTracking { read() } onChange: { [self] in
                count.withLock { $0 += 1 }
                track(read)
            }
        }
    }

    @Test func aModelReadingStateHearsOfSetsScriptsAndSwitches() throws {
        let usage = try UsageHost()
        let model = ProfileModel(usage.application)
        #expect(model.greeting == "token: ")
        let changes = ChangeCounter()
        changes.track { _ = model.greeting }

        usage.application.token.value = "set in Swift"
        #expect(changes.value == 1)
        #expect(model.greeting == "token: set in Swift")

        try usage.host.execute("state.set('token', 'set by a script')")
        #expect(changes.value == 2)
        #expect(model.token.value == "set by a script")

        let qa = try usage.host.containers.createNewContainer(name: "QA")
        try usage.host.containers.activate(container: qa)
        #expect(changes.value == 3, "the switch brought QA's value")
        #expect(model.greeting == "token: ")

        model.token.value = "written through the model"
        #expect(try usage.application.token.read() == "written through the model")
        #expect(changes.value == 4)
    }
}
