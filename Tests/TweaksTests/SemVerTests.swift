import Testing
@testable import Tweaks

/// flagd's `sem_ver` and the ordering of semantic versions.
@Suite struct SemVerTests {
    func semVer(_ left: JSONValue, _ op: String, _ right: String) -> JSONValue {
        SemanticVersion.operate([left, .string(op), .string(right)])
    }

    func semVer(_ left: String, _ op: String, _ right: String) -> JSONValue {
        semVer(.string(left), op, right)
    }

    @Test func releasesOrderByNumbers() throws {
        let ordered = ["0.9.9", "1.0.0", "1.0.1", "1.2.0", "1.10.0", "2.0.0", "10.0.0"].compactMap(SemanticVersion.init)
        #expect(ordered.count == 7)
        #expect(ordered == ordered.sorted())
        #expect(ordered.shuffled().sorted() == ordered)
    }

    @Test func preReleasesOrderBelowTheirReleaseAsSemverSays() throws {
        let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"]
            .compactMap(SemanticVersion.init)
        #expect(ordered.count == 8)
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
        }
    }

    @Test func operators() {
        #expect(semVer("2.0.0", "=", "2.0.0") == .bool(true))
        #expect(semVer("2.0.0", "!=", "2.0.1") == .bool(true))
        #expect(semVer("1.9.0", "<", "2.0.0") == .bool(true))
        #expect(semVer("2.0.0", "<=", "2.0.0") == .bool(true))
        #expect(semVer("2.1.0", ">", "2.0.0") == .bool(true))
        #expect(semVer("2.0.0-alpha", ">=", "2.0.0") == .bool(false))
        #expect(semVer("3.9.1", "^", "3.0.0") == .bool(true))
        #expect(semVer("4.0.0", "^", "3.0.0") == .bool(false))
        #expect(semVer("3.0.7", "~", "3.0.0") == .bool(true))
        #expect(semVer("3.1.0", "~", "3.0.0") == .bool(false))
    }

    @Test func prefixPartialVersionsNumbersAndBuildMetadata() {
        #expect(semVer("v1.0.0", "=", "1.0.0") == .bool(true))
        #expect(semVer("V1.0.0", "=", "1.0.0") == .bool(true))
        #expect(semVer("1.2", "=", "1.2.0") == .bool(true))
        #expect(semVer("1", "=", "1.0.0") == .bool(true))
        #expect(semVer(.double(1.2), "=", "1.2.0") == .bool(true))
        #expect(semVer(.double(2), ">", "1.9.9") == .bool(true))
        #expect(semVer("1.0.0+build.7", "=", "1.0.0") == .bool(true))
    }

    @Test func invalidInputIsNull() {
        #expect(semVer("not-a-version", "=", "1.0.0") == .null)
        #expect(semVer("2.0.0.0", "=", "2.0.0") == .null)
        #expect(semVer("01.0.0", "=", "1.0.0") == .null)
        #expect(semVer("1.0.0", "===", "1.0.0") == .null)
        #expect(semVer(.bool(true), "=", "1.0.0") == .null)
        #expect(SemanticVersion.operate([.string("1.0.0"), .string("=")]) == .null)
    }
}
