import EnvScript
import Foundation
import Testing

/// Export, import and diff over the control API: the same archive as the command line's, the same
/// checks, and statuses that say who is wrong.
@Suite struct ControlSharingTests {
    @Test func anExportedContainerComesBackUnderANewNameAndDiffsAsTheSame() async throws {
        try await ControlAPIFixture.with { api in
            let home = api.host.configuration.home
            try "hello".write(to: home.appendingPathComponent("greeting.txt"), atomically: true, encoding: .utf8)
            let export = try await api.send("GET", "/v1/containers/DEFAULT/export")
            #expect(export.status == 200, "\(export)")
            #expect(export.contentType == "application/zip")

            let taken = try await api.send("POST", "/v1/containers/import", archive: export.body)
            #expect(taken.status == 409)
            #expect(taken.errorMessage?.contains("'DEFAULT'") == true, "\(taken)")
            let imported = try await api.send("POST", "/v1/containers/import?name=From%20QA", archive: export.body)
            #expect(imported.status == 201, "\(imported)")
            #expect(try imported.json()["name"]?.string == "From QA")

            let same = try await api.send("GET", "/v1/containers/DEFAULT/diff/From%20QA").json()
            #expect(same["entries"]?["changed"]?.array?.isEmpty == true, "\(same)")
            try "changed".write(to: home.appendingPathComponent("greeting.txt"), atomically: true, encoding: .utf8)
            let changed = try await api.send("GET", "/v1/containers/From%20QA/diff/DEFAULT").json()
            let entry = try #require(changed["entries"]?["changed"]?.array?.first)
            #expect(entry["path"]?.string == "greeting.txt")
            #expect(entry["size_before"]?.int == 5 && entry["size_after"]?.int == 7, "\(entry)")
        }
    }

    @Test func aDamagedArchiveIsABadRequestAndCreatesNothing() async throws {
        try await ControlAPIFixture.with { api in
            let damaged = try await api.send("POST", "/v1/containers/import?name=Broken", archive: Data("PK not really".utf8))
            #expect(damaged.status == 400)
            #expect(damaged.errorMessage?.contains("truncated or damaged") == true, "\(damaged)")
            let list = try await api.send("GET", "/v1/containers").json()
            #expect(list["containers"]?.array?.contains { $0["name"]?.string == "Broken" } == false)
        }
    }
}
