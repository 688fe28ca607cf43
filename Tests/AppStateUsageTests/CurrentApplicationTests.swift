@testable import AppState
import Foundation
import Testing
import TestSupport

/// Which application is current, and the wrappers under many tasks at once.
@Suite struct CurrentApplicationTests {
    /// The stack the process's current application lives on (a stack of its own here, as other tests
    /// open hosts that make theirs current meanwhile).
    @Test func theLastMadeCurrentWinsAndTheOneBeforeComesBackWhenItResigns() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = Application(home: folder.url.appendingPathComponent("first"), appID: "first")
        let second = Application(home: folder.url.appendingPathComponent("second"), appID: "second")
        let stack = CurrentApplicationStack()
        #expect(stack.current == nil)
        let empty = stack.generation.load(ordering: .relaxed)

        stack.makeCurrent(first)
        stack.makeCurrent(second)
        #expect(stack.current === second)
        let withBoth = stack.generation.load(ordering: .relaxed)
        #expect(withBoth != empty)

        stack.resign(second)
        #expect(stack.current === first)
        stack.resign(second) // not current any more: nothing changes
        #expect(stack.current === first)
        stack.makeCurrent(second)
        stack.makeCurrent(first) // made current again: on top, once
        stack.resign(first)
        #expect(stack.current === second)
        stack.resign(second)
        #expect(stack.current == nil)
        #expect(stack.generation.load(ordering: .relaxed) != withBoth)
    }

    struct Tally: Codable, Sendable, Equatable {
        var left = 0
        var right = 0
    }

    struct TallyModel {
        @Slice(\.tally, \.left) var left: Int
        @Slice(\.tally, \.right) var right: Int
        @StoredState(\.launches) var launches
    }

    /// Eight tasks write two slices of one stored state through wrappers, and increment another state
    /// through its projected handle: no write is lost.
    @Test func wrappersWrittenFromEightTasksLoseNothing() async throws {
        let usage = try UsageHost()
        try await Application.withCurrent(usage.application) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        let model = TallyModel()
                        for _ in 0..<100 {
                            if task.isMultiple(of: 2) {
                                try model.$left.update { $0 += 1 }
                            } else {
                                try model.$right.update { $0 += 1 }
                            }
                            try model.$launches.update { $0 += 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(usage.application.tally.value == Tally(left: 400, right: 400))
        #expect(try usage.application.launches.read() == 800)
    }
}

extension Application {
    var tally: StoredState<CurrentApplicationTests.Tally> { storedState(initial: CurrentApplicationTests.Tally(), id: "tally") }
    var launches: StoredState<Int> { storedState(initial: 0, id: "launches") }
}
