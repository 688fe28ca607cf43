import AsyncHTTPClient
import Containers
@testable import EnvScript
@testable import EnvScriptControl
import Foundation
import Hummingbird
import TestSupport
import Testing
import Tweaks

/// The control API over a real Unix socket: every operation of the OpenAPI document, and the cases
/// that matter to a QA script driving a running application.
@Suite(.timeLimit(.minutes(10))) struct ControlAPITests {
    /// Operations of the document served by the attachment (the host's server lifecycle and the switch
    /// participation), which this branch does not register: skipped by the walk over the document.
    /// Empty this list once those handlers are registered beside ``ControlRoutes``.
    static let servedByTheAttachment: Set<String> = []

    @Test func theRoutesAreExactlyTheDocumentedOperations() async throws {
        let document = try OpenAPIDocument.load()
        #expect(document.json["openapi"]?.string == "3.1.0")
        #expect(document.json["info"]?["version"]?.string == "1")
        let documented = Set(document.operations.map(\.description))
        #expect(Self.servedByTheAttachment.isSubset(of: documented))
        let fixture = try HostFixture()
        let router = Router()
        ControlRoutes.register(on: router, host: fixture.host)
        let registered = Set(router.routes.map { "\($0.method) \($0.path)" })
        #expect(registered == documented.subtracting(Self.servedByTheAttachment))
    }

    @Test func everyDocumentedOperationAnswersAsTheDocumentSays() async throws {
        let document = try OpenAPIDocument.load()
        try await ControlAPIFixture.with { api in
            var called: [String] = []
            for operation in document.operations where !Self.servedByTheAttachment.contains(operation.description) {
                try prepareExamples(api.host)
                let path = try operation.examplePath()
                if operation.description == "GET /v1/events" {
                    // A stream: its first event is checked against the schema the document gives for it.
                    let events = try await api.openEvents()
                    events.close()
                    called.append(operation.description)
                    continue
                }
                let answer = operation.takesArchive
                    ? try await api.send(operation.method, path, archive: try await api.send("GET", "/v1/containers/Staging/export").body)
                    : try await api.send(operation.method, path, body: try operation.exampleBody())
                called.append(operation.description)
                #expect(operation.declaredStatuses.contains(answer.status), "\(operation) answered \(answer), which the document does not declare")
                #expect((200..<300).contains(answer.status), "\(operation) with the document's examples answered \(answer)")
                if operation.answersArchive(status: answer.status) {
                    #expect(answer.contentType == "application/zip", "\(operation): content type \(answer.contentType ?? "none")")
                    #expect(answer.body.starts(with: [0x50, 0x4b, 0x03, 0x04]), "\(operation): not a zip archive")
                    continue
                }
                #expect(answer.contentType?.hasPrefix("application/json") == true, "\(operation): content type \(answer.contentType ?? "none")")
                let json = try answer.json()
                let schema = try #require(operation.responseSchema(status: answer.status, in: document), "\(operation): no JSON schema for \(answer.status)")
                let problems = document.problems(of: json, against: schema)
                #expect(problems.isEmpty, "\(operation) answered \(json): \(problems)")
            }
            #expect(called.count == document.operations.count - Self.servedByTheAttachment.count)
        }
    }

    @Test func theReadyEventMatchesItsSchema() async throws {
        let document = try OpenAPIDocument.load()
        let schema = try #require(document.json["paths"]?["/v1/events"]?["get"]?["x-events"]?["ready"])
        try await ControlAPIFixture.with { api in
            let events = ServerSentEvents(client: api.client, request: api.request("GET", "/v1/events"))
            let ready = try await events.next(named: "ready")
            #expect(document.problems(of: ready, against: schema).isEmpty, "\(ready)")
            #expect(ready["active_container"]?["name"]?.string == "DEFAULT")
            events.close()
        }
    }

    @Test func aSwitchRefusedByAHookAnswers409WithTheHooksMessageAndChangesNothing() async throws {
        let document = try OpenAPIDocument.load()
        try await ControlAPIFixture.with { api in
            let created = try await api.send("POST", "/v1/containers", body: #"{"name": "Frozen"}"#)
            #expect(created.status == 201, "\(created)")
            let home = api.host.configuration.home
            try "original".write(to: home.appendingPathComponent("data.txt"), atomically: true, encoding: .utf8)

            let refused = try await api.send("POST", "/v1/containers/Frozen/activate")
            #expect(refused.status == 409)
            #expect(refused.errorCode == "refused")
            #expect(refused.errorMessage?.contains(ControlAPIFixture.refusalMessage) == true, "\(refused)")
            #expect(refused.errorMessage?.contains("stack traceback") == false)
            let operation = try #require(document.operations.first { $0.description == "POST /v1/containers/{id}/activate" })
            #expect(operation.declaredStatuses.contains(409))
            let errorSchema = try #require(operation.responseSchema(status: 409, in: document))
            #expect(document.problems(of: try refused.json(), against: errorSchema).isEmpty)

            let list = try await api.send("GET", "/v1/containers").json()
            let containers = try #require(list["containers"]?.array)
            #expect(containers.first { $0["is_active"] == .bool(true) }?["name"]?.string == "DEFAULT")
            #expect(containers.first { $0["name"]?.string == "Frozen" }?["activated_count"]?.int == 0)
            #expect(try api.host.containers.activeContainer.isDefault)
            #expect(try String(contentsOf: home.appendingPathComponent("data.txt"), encoding: .utf8) == "original")
        }
    }

    @Test func theProviderStackIsListedHighestPriorityFirst() async throws {
        try await ControlAPIFixture.with { api in
            let providers = try await api.send("GET", "/v1/tweaks/providers").json()["providers"]?.array ?? []
            #expect(providers.map { $0["name"]?.string } == api.host.tweaks.providers.map(\.name))
            #expect(providers.map { $0["name"]?.string } == ["overrides", "shipped"])
            #expect(providers.map { $0["kind"]?.string } == ["overrides", "other"])
            #expect(providers.map { $0["writable"]?.bool } == [true, false])
            #expect(providers.allSatisfy { $0["status"] == nil })
        }
    }

    @Test func aTweakSetThroughTheAPIComesFromTheOverrides() async throws {
        try await ControlAPIFixture.with { api in
            let shipped = try await api.send("GET", "/v1/tweaks/checkout/button_color").json()
            #expect(shipped["value"]?.string == "blue")
            #expect(shipped["source"]?.string == "shipped")
            #expect(shipped["title"]?.string == "Button colour")
            #expect(shipped["group"]?.string == "Checkout")
            #expect(shipped["misses"]?.array?.first?["provider"]?.string == "overrides")
            #expect(shipped["misses"]?.array?.first?["reason"]?.string == "missing")

            let set = try await api.send("PUT", "/v1/tweaks/checkout/button_color", body: #"{"value": "red"}"#)
            #expect(set.status == 200, "\(set)")
            let details = try await api.send("GET", "/v1/tweaks/checkout/button_color").json()
            #expect(details["value"]?.string == "red")
            #expect(details["source"]?.string == "overrides")
            #expect(details["misses"]?.array == [])
            #expect(try api.host.tweaks.value("checkout", "button_color", as: String.self) == "red")
            #expect(try api.fixture.run("return tweak.value('checkout', 'button_color', 'none')") == ["red"])

            let overrides = try await api.send("GET", "/v1/tweaks/overrides").json()
            #expect(overrides["overrides"]?.array?.map { $0["variable"]?.string } == ["button_color"])
            let listed = try await api.send("GET", "/v1/tweaks").json()
            let listedColor = listed["tweaks"]?.array?.first { $0["variable"]?.string == "button_color" }
            #expect(listedColor?["source"]?.string == "overrides")

            // Numbers and Booleans keep their JSON type.
            _ = try await api.send("PUT", "/v1/tweaks/checkout/max_items", body: #"{"value": 3}"#)
            #expect(try api.host.tweaks.value("checkout", "max_items", as: Int.self) == 3)

            let deleted = try await api.send("DELETE", "/v1/tweaks/checkout/button_color").json()
            #expect(deleted["now"]?["value"]?.string == "blue")
            #expect(deleted["now"]?["source"]?.string == "shipped")
            let removed = try await api.send("DELETE", "/v1/tweaks/overrides").json()
            #expect(removed["removed"]?.int == 1)
            #expect(try await api.send("GET", "/v1/tweaks/overrides").json()["overrides"]?.array == [])
            let missing = try await api.send("GET", "/v1/tweaks/checkout/max_items")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
        }
    }

    @Test func theEventStreamReportsSwitchesTweaksAndStateAndForgetsAClientThatLeaves() async throws {
        let document = try OpenAPIDocument.load()
        let schemas = try #require(document.json["paths"]?["/v1/events"]?["get"]?["x-events"])
        func check(_ data: JSONValue, is name: String) {
            guard let schema = schemas[name] else {
                Issue.record("the document has no schema for event '\(name)'")
                return
            }
            let problems = document.problems(of: data, against: schema)
            #expect(problems.isEmpty, "event \(name) \(data): \(problems)")
        }
        try await ControlAPIFixture.with { api in
            let hostID = ObjectIdentifier(api.host)
            let events = try await api.openEvents()
            #expect(ControlEventStreams.count(key: hostID) == 1)

            let staging = try await api.send("POST", "/v1/containers", body: #"{"name": "Staging"}"#)
            #expect(staging.status == 201)
            let activated = try await api.send("POST", "/v1/containers/Staging/activate")
            #expect(activated.status == 200, "\(activated)")
            let container = try await events.next(named: "container")
            #expect(container["to"]?["name"]?.string == "Staging")
            #expect(container["to"]?["is_active"]?.bool == true)
            #expect(container["from"]?["name"]?.string == "DEFAULT")
            #expect(container["generation"]?.int == Int(try api.host.containers.epoch.generation))
            check(container, is: "container")

            let set = try await api.send("PUT", "/v1/tweaks/checkout/button_color", body: #"{"value": "red"}"#)
            #expect(set.status == 200)
            let tweak = try await events.next { $0.name == "tweak" && $0.data["variable"]?.string == "button_color" }
            #expect(tweak.data["tweak"]?["value"]?.string == "red")
            #expect(tweak.data["tweak"]?["source"]?.string == "overrides")
            check(tweak.data, is: "tweak")

            let state = try await api.send("PUT", "/v1/state/session.user", body: #"{"value": "alice"}"#)
            #expect(state.status == 200, "\(state)")
            let change = try await events.next { $0.name == "state" && $0.data["reason"]?.string == "changed" }
            #expect(change.data["key"]?.string == "session.user")
            #expect(change.data["value"]?.string == "alice")
            check(change.data, is: "state")

            // The client goes away: its observers go with it.
            events.close()
            try await waitUntil("the event stream's observers are removed") { ControlEventStreams.count(key: hostID) == 0 }
        }
    }

    @Test func theEventStreamReportsChangesOfTheContainerListMadeHereOrByAnotherProcess() async throws {
        let document = try OpenAPIDocument.load()
        let schema = try #require(document.json["paths"]?["/v1/events"]?["get"]?["x-events"]?["containers"])
        try await ControlAPIFixture.with { api in
            let events = try await api.openEvents()
            let created = try await api.send("POST", "/v1/containers", body: #"{"name": "Staging"}"#)
            #expect(created.status == 201)
            let uuid = try #require(try created.json()["uuid"]?.string)
            let heard = try await events.next(named: "containers")
            #expect(heard["change"]?.string == "created")
            #expect(heard["uuid"]?.string == uuid)
            #expect(document.problems(of: heard, against: schema).isEmpty, "\(heard)")

            // Another host of the home, opened as the command line opens one (not attached), renames it:
            // this host hears of it through its control socket.
            let other = try EnvScriptHost(configuration: HostConfiguration(
                home: api.host.configuration.home, appID: "tests", attachesToHome: false))
            defer { other.close() }
            let otherContainers = other.containers
            try await onAnotherThread { try otherContainers.updateInfo(container: otherContainers.resolve("Staging"), name: "QA") }
            let renamed = try await events.next(named: "containers")
            #expect(renamed["change"]?.string == "updated")
            #expect(renamed["uuid"]?.string == uuid)
            let list = try await api.send("GET", "/v1/containers")
            #expect(list.text.contains(#""name":"QA""#), "\(list)")

            try await onAnotherThread { try otherContainers.reset() }
            let reset = try await events.next(named: "containers")
            #expect(reset["change"]?.string == "reset")
            #expect(reset["uuid"] == .null)
            #expect(document.problems(of: reset, against: schema).isEmpty, "\(reset)")
            events.close()
        }
    }

    @Test func oneContainerIsAnsweredWithItsRoomOnDisk() async throws {
        try await ControlAPIFixture.with { api in
            let home = api.host.configuration.home
            try Data(count: 64 * 1024).write(to: home.appendingPathComponent("big.bin"))
            _ = try await api.send("POST", "/v1/containers", body: #"{"name": "Empty"}"#)

            let active = try await api.send("GET", "/v1/containers/DEFAULT")
            let usage = try #require(try active.json()["disk_usage"], "\(active)")
            #expect((usage["bytes"]?.int ?? 0) >= 64 * 1024, "\(usage)")
            #expect((usage["entries"]?.int ?? 0) >= 1, "\(usage)")
            let empty = try await api.send("GET", "/v1/containers/Empty")
            #expect(try empty.json()["disk_usage"] == .object(["bytes": .int(0), "entries": .int(0)]), "\(empty)")
            let list = try await api.send("GET", "/v1/containers")
            #expect(!list.text.contains("disk_usage"), "the list does not walk every container")
        }
    }

    @Test func finishingTheEventStreamsOfAHostEndsThemForTheirClients() async throws {
        try await ControlAPIFixture.with { api in
            let events = try await api.openEvents()
            ControlRoutes.finishEventStreams(of: api.host)
            await #expect(throws: DocumentError.self) { _ = try await events.next(named: "container") }
            #expect(ControlEventStreams.count(key: ObjectIdentifier(api.host)) == 0)
        }
    }

    @Test func malformedBodiesAnswer400NamingWhatIsWrong() async throws {
        try await ControlAPIFixture.with { api in
            let cases: [(method: String, path: String, body: String, says: String)] = [
                ("POST", "/v1/containers", #"{"name": "#, "not valid JSON"),
                ("POST", "/v1/containers", "", "the request body is empty"),
                ("POST", "/v1/containers", #"["Debug"]"#, "must be a JSON object, not an array"),
                ("POST", "/v1/containers", #"{"nmae": "Debug"}"#, "unknown field 'nmae'"),
                ("POST", "/v1/containers", #"{"description": "x"}"#, "field 'name' is required"),
                ("POST", "/v1/containers", #"{"name": 3}"#, "field 'name' must be a string, not an integer"),
                ("PATCH", "/v1/containers/DEFAULT", "{}", "nothing to change"),
                ("PUT", "/v1/tweaks/checkout/button_color", #"{"value": [1, null]}"#, "must be a Boolean, a number, a string, an array or an object, with no null inside"),
                ("PUT", "/v1/state/session.user", #"{"val": 1}"#, "unknown field 'val'"),
            ]
            for item in cases {
                let answer = try await api.send(item.method, item.path, body: item.body)
                #expect(answer.status == 400, "\(item.method) \(item.path) \(item.body) answered \(answer)")
                #expect(answer.errorCode == "bad_request")
                #expect(answer.errorMessage?.contains(item.says) == true, "\(answer) should say \(item.says)")
            }
            #expect(try api.host.containers.containers.count == 1, "no bad request created anything")
        }
    }

    @Test func containersAreAddressedByNameOrUUIDAndErrorsMapToTheirStatuses() async throws {
        try await ControlAPIFixture.with { api in
            let created = try await api.send("POST", "/v1/containers", body: #"{"name": "Debug build", "description": "QA login"}"#)
            #expect(created.status == 201)
            let uuid = try #require(try created.json()["uuid"]?.string)
            let byName = try await api.send("GET", "/v1/containers/Debug%20build").json()
            #expect(byName["uuid"]?.string == uuid)
            #expect(byName["description"]?.string == "QA login")
            #expect(try await api.send("GET", "/v1/containers/\(uuid)").json()["name"]?.string == "Debug build")

            let duplicate = try await api.send("POST", "/v1/containers", body: #"{"name": "Debug build"}"#)
            #expect(duplicate.status == 409)
            #expect(duplicate.errorCode == "conflict")
            let invalid = try await api.send("POST", "/v1/containers", body: #"{"name": ""}"#)
            #expect(invalid.status == 400)
            let missing = try await api.send("POST", "/v1/containers/Nope/activate")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
            let deleteDefault = try await api.send("DELETE", "/v1/containers/DEFAULT")
            #expect(deleteDefault.status == 409)
            #expect(deleteDefault.errorCode == "conflict")

            let noSuchPath = try await api.send("GET", "/v1/containres")
            #expect(noSuchPath.status == 404)
            #expect(noSuchPath.errorCode == "not_found")
            #expect(noSuchPath.errorMessage?.contains("GET /v1/containres") == true, "\(noSuchPath)")

            let renamed = try await api.send("PATCH", "/v1/containers/\(uuid)", body: #"{"name": "Debug"}"#).json()
            #expect(renamed["name"]?.string == "Debug")
            #expect(try await api.send("DELETE", "/v1/containers/Debug").status == 200)
            #expect(try api.host.containers.container(named: "Debug") == nil)
        }
    }

    @Test func namesBreakingTheRulesAnswer400AndNamesTakenButForCase409() async throws {
        try await ControlAPIFixture.with { api in
            #expect(try await api.send("POST", "/v1/containers", body: #"{"name": "Debug"}"#).status == 201)
            for (body, says) in [
                (#"{"name": "   "}"#, "not only white space"),
                (#"{"name": " Staging "}"#, "may not begin or end with white space"),
                (#"{"name": "tab\tname"}"#, "U+0009"),
            ] {
                let answer = try await api.send("POST", "/v1/containers", body: body)
                #expect(answer.status == 400, "\(body) answered \(answer)")
                #expect(answer.errorMessage?.contains(says) == true, "\(answer) should say \(says)")
            }
            // The byte 0xFF in a JSON string: not UTF-8, refused instead of becoming U+FFFD.
            let notUTF8 = try await api.send("POST", "/v1/containers", bytes: Data(#"{"name": "a"#.utf8) + [0xFF] + Data(#"b"}"#.utf8))
            #expect(notUTF8.status == 400, "\(notUTF8)")
            #expect(notUTF8.errorMessage?.contains("UTF-8") == true, "\(notUTF8)")
            for (method, path, body, existing) in [
                ("POST", "/v1/containers", #"{"name": "default"}"#, "DEFAULT"),
                ("POST", "/v1/containers/DEFAULT/clone", #"{"name": "DEBUG"}"#, "Debug"),
            ] {
                let answer = try await api.send(method, path, body: body)
                #expect(answer.status == 409, "\(method) \(path) \(body) answered \(answer)")
                #expect(answer.errorMessage?.contains("differs only by case from the container '\(existing)'") == true, "\(answer)")
            }
            #expect(try api.host.containers.containers.map(\.name) == ["DEFAULT", "Debug"])
        }
    }

    @Test func stateIsReadAndWrittenAsLuaSeesIt() async throws {
        try await ControlAPIFixture.with { api in
            let list = try await api.send("GET", "/v1/state").json()
            let entries = try #require(list["state"]?.array)
            #expect(entries.map { $0["key"]?.string } == ["session.user", "cart.count"])
            #expect(entries.map { $0["kind"]?.string } == ["stored", "memory"])
            #expect(entries.last?["value"]?.int == 0)

            let set = try await api.send("PUT", "/v1/state/cart.count", body: #"{"value": 2.5}"#).json()
            #expect(set["value"] == .double(2.5))
            #expect(try api.fixture.run("return state.get('cart.count'), math.type(state.get('cart.count'))") == [2.5, "float"])
            _ = try await api.send("PUT", "/v1/state/cart.count", body: #"{"value": {"items": [1, 2]}}"#)
            #expect(try api.fixture.run("return state.get('cart.count').items[2]") == [2])
            let reset = try await api.send("DELETE", "/v1/state/cart.count").json()
            #expect(reset["value"]?.int == 0)
            let unknown = try await api.send("GET", "/v1/state/nope")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "not_found")
        }
    }

    @Test func explainShowsEveryProviderAndTheCipherKeyThatOpenedTheAnswer() async throws {
        try await ControlAPIFixture.with { api in
            let folder = api.host.configuration.home.deletingLastPathComponent()
            let keyFile = folder.appendingPathComponent("explain.tweak-keys")
            let cipher = TweakCipher(keyring: try TweakKeyFile.addGeneratedKey(to: keyFile, id: "k7").ring)
            let json = folder.appendingPathComponent("sealed.json")
            try "{ \"api\": { \"token\": { \"Value\": \"\(try cipher.seal("s3cret"))\", \"Encrypted\": true } } }"
                .write(to: json, atomically: true, encoding: .utf8)
            _ = try api.host.execute("""
                tweak.cipher{ key_file = '\(keyFile.path)' }
                tweak.stack{ tweak.provider{ name = 'flaky', get = function() error('down') end }, tweak.overrides(), tweak.json('\(json.path)', 'shipped') }
                """, name: "explain")
            let answer = try await api.send("GET", "/v1/tweaks/api/token/explain")
            #expect(answer.status == 200)
            let body = try answer.json()
            let steps = try #require(body["steps"]?.array)
            #expect(steps.map { $0["outcome"]?.string } == ["failed", "missing", "answered"])
            #expect(steps[0]["error"]?.string?.contains("down") == true)
            #expect(steps[2]["key_id"]?.string == "k7")
            #expect(steps[2]["sealed"]?.bool == true)
            #expect(body["answer"]?["source"]?.string == "shipped")
            let nobody = try await api.send("GET", "/v1/tweaks/api/nothing/explain")
            #expect(nobody.status == 200)
            #expect(try nobody.json()["answer"] == .null)
        }
    }
}

/// Makes the examples of the OpenAPI document valid before each operation: DEFAULT active, a container
/// `Staging` and no other, an override of `checkout.button_color`, the declared state at rest.
private func prepareExamples(_ host: EnvScriptHost) throws {
    try host.lock.withLock {
        let containers = host.containers
        try containers.activate(container: try containers.resolve("DEFAULT"))
        for container in try containers.containers where !container.isDefault && container.name != "Staging" {
            try containers.delete(container: container)
        }
        if try containers.container(named: "Staging") == nil { try containers.createNewContainer(name: "Staging") }
        try host.tweaks.set(.string("green"), feature: "checkout", variable: "button_color")
        try host.application.resetAll()
    }
}
