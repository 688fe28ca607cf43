import AppState
import Containers
import EnvScript
import Foundation
import Testing

/// `values`: the changes of a state as an `AsyncSequence`, across a container switch.
@Suite struct StateValuesTests {
    @Test func theSequenceYieldsTheNewContainersValueAfterASwitch() async throws {
        let usage = try UsageHost()
        let token = usage.application.token
        token.value = "default token"
        let qa = try usage.host.containers.createNewContainer(name: "QA")

        let received = Task {
            var seen: [String] = []
            for await value in token.values {
                seen.append(value)
                if seen.count == 3 { break }
            }
            return seen
        }
        // The sequence observes once it is iterated: wait for that before changing anything.
        try await Task.sleep(for: .milliseconds(100))
        try usage.host.containers.activate(container: qa)
        token.value = "qa token"
        try usage.host.containers.activate(container: try usage.host.containers.resolve("DEFAULT"))
        let seen = await received.value
        #expect(seen == ["", "qa token", "default token"], "seen: \(seen)")
        #expect(token.value == "default token")
    }
}
