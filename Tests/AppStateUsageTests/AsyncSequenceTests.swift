import AppState
import Containers
import EnvScript
import Foundation
import Testing

/// Changes as `AsyncSequence`s: a state's `values` across a container switch, the flags' `changes`,
/// the home's `switches`.
@Suite struct AsyncSequenceTests {
    @Test func theSequenceYieldsTheNewContainersValueAfterASwitch() async throws {
        let usage = try UsageHost()
        let token = usage.application.token
        token.value = "default token"
        let qa = try usage.host.containers.createNewContainer(name: "QA")

        let values = token.values
        let received = Task {
            var seen: [String] = []
            for await value in values {
                seen.append(value)
                if seen.count == 3 { break }
            }
            return seen
        }
        try usage.host.containers.activate(container: qa)
        token.value = "qa token"
        try usage.host.containers.activate(container: try usage.host.containers.resolve("DEFAULT"))
        let seen = await received.value
        #expect(seen == ["", "qa token", "default token"], "seen: \(seen)")
        #expect(token.value == "default token")
    }

    @Test func flagChangesAndContainerSwitchesAreSequencesToo() async throws {
        let usage = try UsageHost()
        let containers = usage.host.containers
        let qa = try containers.createNewContainer(name: "QA")
        let switchSequence = containers.switches
        let changeSequence = usage.host.tweaks.changes
        let switches = Task {
            var seen: [String] = []
            for await change in switchSequence {
                seen.append("\(change.from?.name ?? "?") -> \(change.to.name)")
                if seen.count == 2 { break }
            }
            return seen
        }
        let tweaks = usage.host.tweaks
        let flagChanges = Task {
            var seen: [String] = []
            for await change in changeSequence {
                if let key = change.key { seen.append("\(key.feature).\(key.variable)") }
                if seen.contains("checkout.color") { break }
            }
            return seen
        }
        try tweaks.set("red", feature: "checkout", variable: "color")
        try containers.activate(container: qa)
        try containers.activate(container: try containers.resolve("DEFAULT"))
        #expect(await switches.value == ["DEFAULT -> QA", "QA -> DEFAULT"])
        #expect(await flagChanges.value.contains("checkout.color"))
    }
}
