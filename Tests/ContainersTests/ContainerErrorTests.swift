import Containers
import Testing

/// ``ContainerError`` as an app sees it: a code to compare, a message, and the details as properties.
@Suite struct ContainerErrorTests {
    private struct DiskGone: Error {}

    @Test func eachReasonHasItsCodeAndDetails() {
        let missing = ContainerError.notFound("QA")
        #expect(missing.code == .notFound && missing.containerName == "QA" && missing.path == nil)
        let io = ContainerError.io(path: "/home/a.txt", underlying: DiskGone())
        #expect(io.code == .io && io.path == "/home/a.txt" && io.underlyingError is DiskGone && io.containerName == nil)
        #expect(ContainerError.cannotDeleteDefault.code == .cannotDeleteDefault)
        #expect(ContainerError.cannotDeleteDefault.code != .cannotRenameDefault)
        #expect(ContainerError.Code.refusedJournal.name == "refusedJournal" && "\(ContainerError.Code.io)" == "io")
    }

    @Test func theMessageIsTheDescription() {
        let taken = ContainerError.duplicateName("QA")
        #expect(taken.message == "a container named 'QA' already exists in this home; choose another name")
        #expect(taken.description == taken.message && taken.errorDescription == taken.message)
    }

    @Test func aSwitchOverTheCodeHasADefault() {
        func status(_ error: ContainerError) -> Int {
            switch error.code {
            case .notFound: 404
            case .duplicateName, .nameDiffersOnlyByCase: 409
            default: 500 // a release may add codes
            }
        }
        #expect(status(.notFound("QA")) == 404)
        #expect(status(.nameDiffersOnlyByCase("qa", existing: "QA")) == 409)
        #expect(status(.invalidUUID("0000")) == 500)
    }
}
