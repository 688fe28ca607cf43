import EnvScript
import Foundation
import Testing

/// Export, import and diff over the control API: the same archive as the command line's, the same
/// checks, and statuses that say who is wrong.
@Suite(.timeLimit(.minutes(10))) struct ControlSharingTests {
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

    /// A container whose `container.json` cannot be used is listed apart (`damaged`), not a failed list
    /// (issue #32, point 18: one damaged record used to fail the whole list with 500).
    @Test func aContainerWhoseRecordIsDamagedIsListedApart() async throws {
        try await ControlAPIFixture.with { api in
            let broken = try api.host.containers.createNewContainer(name: "Broken", description: nil)
            let record = api.host.configuration.home
                .appendingPathComponent(".envscript-containers/containers/\(broken.uuid.uuidString)/container.json")
            try Data("{not json".utf8).write(to: record)

            let answer = try await api.send("GET", "/v1/containers")
            #expect(answer.status == 200, "\(answer)")
            let list = try answer.json()
            #expect(list["containers"]?.array?.compactMap { $0["name"]?.string } == ["DEFAULT"])
            let damaged = try #require(list["damaged"]?.array?.first, "\(list)")
            #expect(damaged["uuid"]?.string == broken.uuid.uuidString)
            #expect(damaged["is_active"] == .bool(false))
            #expect(damaged["record_path"]?.string == record.path)
            #expect(damaged["problem"]?.string?.isEmpty == false)
            let document = try OpenAPIDocument.load()
            let operation = try #require(document.operations.first { $0.description == "GET /v1/containers" })
            let schema = try #require(operation.responseSchema(status: 200, in: document))
            #expect(document.problems(of: list, against: schema).isEmpty)
        }
    }
}
