import AsyncHTTPClient
@testable import EnvScript
@testable import EnvScriptControl
import Foundation
import NIOCore
import Testing
import TestSupport
import Tweaks

/// What the control API does with input a fuzzer or an attacker sends, over a real socket: a client's
/// mistake is a 4xx JSON error, never a 500; input that would cost the host seconds of CPU is refused
/// at once and holds up no other request.
@Suite(.timeLimit(.minutes(10))) struct ControlAPIBadInputTests {
    @Test func aTweakWrittenWithAnotherTypeThanItsOwnIsABadRequest() async throws {
        try await ControlAPIFixture.with { api in
            let first = try await api.send("PUT", "/v1/tweaks/checkout/retries", body: #"{"value": 3}"#)
            #expect(first.status == 200, "\(first)")
            for value in [#""three""#, "[1, 2]", #"{"a": 1}"#, "true"] {
                let refused = try await api.send("PUT", "/v1/tweaks/checkout/retries", body: #"{"value": \#(value)}"#)
                #expect(refused.status == 400, "\(value): \(refused)")
                #expect(refused.errorCode == "bad_request")
                #expect(refused.errorMessage?.contains("'checkout.retries' is an int") == true, "\(refused)")
            }
        }
    }

    @Test func bodiesThatAreNotStrictJSONAreRefusedNamingWhatIsWrong() async throws {
        try await ControlAPIFixture.with { api in
            let cases: [(body: String, says: String)] = [
                (#"{"name": "x",}"#, "trailing comma before '}'; JSON allows none, remove it at line 1, column 13"),
                (#"{"name": ["x",]}"#, "trailing comma before ']'"),
                (#"{"name": "x", "name": "y"}"#, #"duplicate key "name""#),
                (#"{"name": 01}"#, "leading zeros"),
                (#"{"name": "\ud800"}"#, "unpaired UTF-16 surrogate"),
                ("{\"name\": \"a\tb\"}", "control character"),
                (#"{"name": "x"} x"#, "after the end of the document"),
                (#"{'name': 'x'}"#, "expected a quoted key"),
            ]
            for (body, says) in cases {
                let answer = try await api.send("POST", "/v1/containers", body: body)
                #expect(answer.status == 400, "\(body): \(answer)")
                #expect(answer.errorMessage?.contains(says) == true, "\(body): \(answer)")
            }
            #expect(try api.host.containers.containers.map(\.name) == ["DEFAULT"])
        }
    }

    @Test func aMethodAPathDoesNotTakeIs405WithTheMethodsItTakes() async throws {
        try await ControlAPIFixture.with { api in
            let response = try await api.client.execute(api.request("TRACE", "/v1/containers"), timeout: .seconds(30))
            let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
            #expect(response.status.code == 405, "\(body)")
            #expect(response.headers.first(name: "Allow") == "GET, POST")
            #expect(body.contains(#""code":"method_not_allowed""#), "\(body)")
            let reset = try await api.send("PUT", "/v1/containers/reset")
            #expect(reset.status == 405)
            #expect(reset.errorMessage?.contains("it takes POST") == true, "\(reset)")
            // A path the API does not have is still 404.
            let missing = try await api.send("TRACE", "/v1/nothing/here")
            #expect(missing.status == 404)
        }
    }

    /// 20 MiB that are not a zip archive: refused before ZIPFoundation (which would look for the end of
    /// the archive byte by byte, seconds of CPU under the host's lock), while other requests go on.
    ///
    /// The other requests are sent and timed on a thread of their own with the client's futures: timed
    /// from a task, they measured how long the test waited for Swift's pool (two threads, held by the
    /// suite's blocking tests), not the server: 147 s in a whole run here.
    @Test func aBodyThatIsNotAZipArchiveIsRefusedAtOnceAndStallsNoOtherRequest() async throws {
        try await ControlAPIFixture.with { api in
            var generator = SystemRandomNumberGenerator()
            let words = (0..<(20 << 20) / 8).map { _ in generator.next() as UInt64 }
            let noise = words.withUnsafeBytes { Data($0) }
            let (imported, answers) = try await onAnotherThread { [client = api.client, socketPath = api.socketPath] in
                try Self.importBeside(listing: 5, noise, client: client, socketPath: socketPath)
            }
            for answer in answers {
                #expect(answer.status == 200)
                #expect(answer.waited < .seconds(5), "GET /v1/containers waited \(answer.waited) beside the import")
            }
            let body = imported.body.map { String(buffer: $0) } ?? ""
            #expect(imported.status == .badRequest, "\(body)")
            #expect(body.contains("no end-of-archive record"), "\(body)")
            #expect(try api.host.containers.containers.map(\.name) == ["DEFAULT"])
        }
    }

    /// Sends `noise` to be imported and, while it goes, lists the containers `count` times, each request
    /// sent when the last was answered; blocks until every answer is in.
    private static func importBeside(
        listing count: Int, _ noise: Data, client: HTTPClient, socketPath: String
    ) throws -> (HTTPClient.Response, [Listed]) {
        let url = { (path: String) in URL(httpURLWithSocketPath: socketPath, uri: path)!.absoluteString }
        var upload = try HTTPClient.Request(url: url("/v1/containers/import?name=Noise"), method: .POST, body: .bytes(noise))
        upload.headers.add(name: "Content-Type", value: "application/zip")
        let list = try HTTPClient.Request(url: url("/v1/containers"))
        let importing = client.execute(request: upload, deadline: NIODeadline.now() + TimeAmount.seconds(120))
        let clock = ContinuousClock()
        var answers: [Listed] = []
        for _ in 0..<count {
            let started = clock.now
            let response = try client.execute(request: list, deadline: NIODeadline.now() + TimeAmount.seconds(60)).wait()
            answers.append(Listed(status: response.status.code, waited: clock.now - started))
        }
        return (try importing.wait(), answers)
    }

    /// One answer to a request sent beside the import: its status and how long it took.
    private struct Listed {
        let status: UInt
        let waited: Duration
    }

    @Test func jsonNestedJustUnderTheCapIsReadAndTheNextRequestServed() async throws {
        try await ControlAPIFixture.with { api in
            let depth = JSONScanner.maximumDepth - 1
            let nested = String(repeating: "[", count: depth - 1) + "1" + String(repeating: "]", count: depth - 1)
            let set = try await api.send("PUT", "/v1/tweaks/deep/list", body: #"{"value": \#(nested)}"#)
            #expect(set.status == 200, "\(set.status)")
            let list = try await api.send("GET", "/v1/containers")
            #expect(list.status == 200)
            let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
            let refused = try await api.send("PUT", "/v1/tweaks/deep/list", body: #"{"value": \#(tooDeep)}"#)
            #expect(refused.status == 400)
            #expect(refused.errorMessage?.contains("nesting deeper than 512 levels") == true, "\(refused)")
        }
    }
}

/// The cost of reading a request body grows with its length, not with the square (or worse) of its
/// depth: timed in one process, a body nested five times deeper takes about five times as long.
@Suite(.timeLimit(.minutes(10))) struct RequestBodyCostTests {
    private func nested(_ depth: Int) -> Data {
        Data((#"{"value": "# + String(repeating: #"{"a": "#, count: depth) + "1" + String(repeating: "}", count: depth) + "}").utf8)
    }

    /// Each round reads each body 50 times, the bodies taking turns, and keeps each body's fastest
    /// round, which leaves out a busy machine's pauses. Rounds go on — at most 200, or 60 seconds —
    /// until the fastest times are within `bound` of each other: a parser that is linear gets there in
    /// the first rounds on a quiet machine and later on a loaded one (the whole suite runs at once on
    /// two cores), while a quadratic one (25×) never does, however long it is given.
    @Test func nestingFiveTimesDeeperCostsAboutFiveTimesAsMuch() throws {
        let bodies = [nested(100), nested(500)]
        let bound = 15.0
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        var best = bodies.map { _ in Duration.seconds(1000) }
        var ratio = Double.infinity
        for _ in 0..<200 where ratio >= bound && clock.now < deadline {
            for (index, body) in bodies.enumerated() {
                let started = clock.now
                for _ in 0..<50 { _ = try ControlRequestBody.parse(body, allowed: ["value"], example: "{}") }
                best[index] = min(best[index], clock.now - started)
            }
            ratio = best[1] / best[0]
        }
        // Linear: about 5. Quadratic would be 25, what Foundation's decoding cost about 100.
        #expect(ratio < bound, "depth 500 cost \(best[1]), depth 100 \(best[0]): \(ratio)×")
    }

    /// One float rule (JSONValue's): a number is an integer when written without a fraction or an
    /// exponent, a double otherwise; a state value's `{"$float": ...}` is read by the state route.
    @Test func numbersKeepTheKindTheyAreWrittenIn() throws {
        let body = try ControlRequestBody.parse(
            Data(#"{"a": 3, "b": 3.0, "c": 3e2, "d": 1.5, "e": -0.0, "f": 9223372036854775808, "g": {"$float": "2"}, "h": "\u00e9\ud83d\ude00"}"#.utf8),
            allowed: ["a", "b", "c", "d", "e", "f", "g", "h"], example: "{}")
        #expect(body.fields["a"] == .int(3))
        #expect(body.fields["b"] == .double(3))
        #expect(body.fields["c"] == .double(300))
        #expect(body.fields["d"] == .double(1.5))
        #expect(body.fields["e"] == .double(-0.0))
        #expect(body.fields["f"] == .double(9_223_372_036_854_775_808))
        #expect(body.fields["g"] == ["$float": "2"])
        #expect(body.fields["g"]?.readingFloatMarkers() == .double(2))
        #expect(body.fields["h"] == .string("é😀"))
    }
}
