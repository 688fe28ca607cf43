@testable import AppState
import Foundation
import Locking
import Testing
import TestSupport

/// The slow path of a wrapper made without a current application, or after it changed: it resolves once
/// per current application, not once per access.
@Suite struct TargetResolverTests {
    @Test func resolvesOncePerCurrentApplication() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = Application(home: folder.url.appendingPathComponent("first"), appID: "first")
        let second = Application(home: folder.url.appendingPathComponent("second"), appID: "second")
        let stack = CurrentApplicationStack()
        let resolutions = Locked(0)
        let resolver = TargetResolver<String>(
            resolve: { application in
                resolutions.withLock { $0 += 1 }
                return application.appID
            },
            use: { "the test" }, stack: stack)

        stack.makeCurrent(first)
        for _ in 0..<3 { #expect(resolver.withTargetResolvedNow { copy $0 } == "first") }
        #expect(resolutions.withLock { $0 } == 1)

        stack.makeCurrent(second)
        for _ in 0..<3 { #expect(resolver.withTargetResolvedNow { copy $0 } == "second") }
        #expect(resolutions.withLock { $0 } == 2)

        stack.resign(second)
        #expect(resolver.withTargetResolvedNow { copy $0 } == "first")
        #expect(resolutions.withLock { $0 } == 3)
    }
}
