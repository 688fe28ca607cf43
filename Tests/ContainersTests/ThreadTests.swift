import Dispatch
import Foundation
import Testing
@testable import Containers
import TestSupport

@Suite struct ThreadTests {
    @Test func threadsAndInstancesSwitchingOneHomeAtOnceLoseNothing() throws {
        let fixture = try SwitchFixture(filesPerContainer: 60)
        defer { fixture.home.remove() }
        let shared = try fixture.open()
        let other = try fixture.open()
        let switches = Counter()
        for instance in [shared, other] {
            instance.addDidChangeHook { _, _ in switches.next() }
        }
        let before = try shared.containers.reduce(0) { $0 + $1.activatedCount }
        let uuids = fixture.uuids
        let failures = EventLog()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let instance = worker % 2 == 0 ? shared : other
            for step in 0..<15 {
                do {
                    try instance.activateContainer(uuid: uuids[(worker + step) % uuids.count])
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        #expect(failures.events.isEmpty)
        try fixture.verify()
        let after = try shared.containers.reduce(0) { $0 + $1.activatedCount }
        #expect(after - before == switches.value)
    }
}
