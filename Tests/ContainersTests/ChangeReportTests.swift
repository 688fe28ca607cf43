import Dispatch
import Foundation
import Locking
import Testing
@testable import Containers
import TestSupport

/// Every change returns its own report: two threads changing one home through one instance each learn
/// who took part in their own change, never in the other thread's.
@Suite struct ChangeReportTests {
    /// Other processes as a test plays them: each switch's participants are named after the switch's
    /// target (`pid` for every container), and `late` of them say they were late.
    struct NamedParticipants: RemoteParticipants {
        let pids: [UUID: Int32]
        let late: Set<Int32>

        func prepare(_ change: HomeChange) throws -> PreparedHomeChange {
            PreparedHomeChange(change: change, participants: [pids[change.to.uuid] ?? -1])
        }

        func finish(_ prepared: PreparedHomeChange, committed: Bool) -> [Int32] {
            prepared.participants.filter(late.contains)
        }
    }

    @Test func twoThreadsSwitchingOneInstanceEachGetTheirOwnReport() throws {
        let fixture = try SwitchFixture(filesPerContainer: 10)
        defer { fixture.home.remove() }
        let containers = try fixture.open()
        let uuids = fixture.uuids
        let pids = Dictionary(uniqueKeysWithValues: uuids.enumerated().map { ($1, Int32(1000 + $0)) })
        containers.remoteParticipants = NamedParticipants(pids: pids, late: [1001])
        let mismatches = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for step in 0..<20 {
                let target = uuids[(worker + step) % uuids.count]
                do {
                    let report = try containers.activateContainer(uuid: target)
                    // Activating the container already active is no switch: nobody took part.
                    if report.participants != [] && report.participants != [pids[target]!] {
                        mismatches.withLock { $0.append("switch to \(pids[target]!) reported \(report.participants)") }
                    }
                    if report.lateParticipants != report.participants.filter({ $0 == 1001 }) {
                        mismatches.withLock { $0.append("late \(report.lateParticipants) of \(report.participants)") }
                    }
                } catch {
                    mismatches.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == [])
        _ = try fixture.verify()
    }

    @Test func aChangeWithoutOtherProcessesReportsNobodyAndNothingLeft() throws {
        let fixture = try SwitchFixture(filesPerContainer: 3)
        defer { fixture.home.remove() }
        let containers = try fixture.open()
        let report = try containers.activateContainer(uuid: fixture.uuids[1])
        #expect(report == ContainerChangeReport())
        #expect(try containers.clean(container: containers.activeContainer) == ContainerChangeReport())
    }
}
