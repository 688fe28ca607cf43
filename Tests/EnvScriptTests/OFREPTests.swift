import AsyncHTTPClient
import EnvScript
import Foundation
import Testing
import TestSupport
import Tweaks

/// OFREP as the control API serves it: one flag and all of them, through the whole stack, in the
/// request's context, shaped as OpenFeature's clients read it.
@Suite struct OFREPTests {
    /// The fixture's stack with a Lua provider of targeting on top: `checkout.layout` is "new" for
    /// German users, "old" for the others.
    private static func addTargeting(to api: ControlAPIFixture) throws {
        let shipped = try api.fixture.write("more.json", #"{"checkout": {"button_color": {"Value": "blue"}, "enabled": {"Value": true}}}"#)
        try api.fixture.run("""
            tweak.stack{ tweak.overrides(), tweak.provider{ name = 'rules', get = function(feature, variable, ctx)
              if feature == 'checkout' and variable == 'layout' then
                if ctx.country == 'DE' then return {value = 'new', variant = 'on', reason = 'TARGETING_MATCH'} end
                return {value = 'old', variant = 'off', reason = 'DEFAULT'}
              end
            end }, tweak.json('\(shipped)', 'shipped') }
            """)
    }

    @Test func oneFlagIsAnsweredWithItsValueReasonVariantAndMetadata() async throws {
        try await ControlAPIFixture.with { api in
            let answer = try await api.send("POST", "/ofrep/v1/evaluate/flags/checkout.button_color", body: #"{"context": {}}"#)
            #expect(answer.status == 200, "\(answer)")
            // A null variant: OpenFeature's Python provider refuses an answer without the key.
            #expect(answer.text == #"{"key":"checkout.button_color","value":"blue","reason":"STATIC","variant":null,"metadata":{}}"#)
        }
    }

    /// OFREP's document, rule by rule: the context is required (a body without it, or with null, is
    /// 400 INVALID_CONTEXT, on both routes); fields the document does not name are ignored; a body past
    /// the limit is 413 in OFREP's shape of a general error.
    @Test func requestsAreReadAsOFREPsDocumentSays() async throws {
        try await ControlAPIFixture.with { api in
            for path in ["/ofrep/v1/evaluate/flags/checkout.enabled", "/ofrep/v1/evaluate/flags"] {
                for body in [nil, "{}", #"{"context": null}"#] as [String?] {
                    let refused = try await api.send("POST", path, body: body)
                    #expect(refused.status == 400, "\(path) \(body ?? "no body"): \(refused)")
                    #expect(refused.text.contains(#""errorCode":"INVALID_CONTEXT""#), "\(path): \(refused.text)")
                }
                let later = try await api.send("POST", path, body: #"{"context": {"targetingKey": "u1"}, "trackingHint": 3}"#)
                #expect(later.status == 200, "\(path): \(later)")
                let huge = try await api.send("POST", path, body: #"{"context": {"blob": ""# + String(repeating: "x", count: 2 << 20) + #""}}"#)
                #expect(huge.status == 413, "\(path): \(huge.status)")
                #expect(huge.text.hasPrefix(#"{"errorDetails":"#), "\(path): \(huge.text)")
            }
        }
    }

    @Test func theContextChoosesAndTheOverridesOfTheActiveContainerComeFirst() async throws {
        try await ControlAPIFixture.with { api in
            try Self.addTargeting(to: api)
            let german = try await api.send("POST", "/ofrep/v1/evaluate/flags/checkout.layout", body: #"{"context": {"targetingKey": "u1", "country": "DE"}}"#)
            #expect(german.text == #"{"key":"checkout.layout","value":"new","reason":"TARGETING_MATCH","variant":"on","metadata":{}}"#)
            let french = try await api.send("POST", "/ofrep/v1/evaluate/flags/checkout.layout", body: #"{"context": {"country": "FR"}}"#)
            #expect(french.text.contains(#""value":"old","reason":"DEFAULT","variant":"off""#), "\(french)")
            // The same through the control API's own lookup.
            let query = "context=" + #"{"country":"DE"}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let details = try await api.send("GET", "/v1/tweaks/checkout/layout?\(query)")
            #expect(try details.json()["value"]?.string == "new", "\(details)")
            #expect(try details.json()["reason"]?.string == "TARGETING_MATCH", "\(details)")
            // An override wins for everyone.
            let set = try await api.send("PUT", "/v1/tweaks/checkout/layout", body: #"{"value": "forced"}"#)
            #expect(set.status == 200, "\(set)")
            let overridden = try await api.send("POST", "/ofrep/v1/evaluate/flags/checkout.layout", body: #"{"context": {"country": "DE"}}"#)
            #expect(overridden.text.contains(#""value":"forced","reason":"STATIC""#), "\(overridden)")
        }
    }

    @Test func aWholeDoubleKeepsItsFractionAndAnIntegerStaysOne() async throws {
        try await ControlAPIFixture.with { api in
            try api.host.tweaks.set(.double(2), feature: "pricing", variable: "ratio")
            try api.host.tweaks.set(.int(2), feature: "pricing", variable: "count")
            let ratio = try await api.send("POST", "/ofrep/v1/evaluate/flags/pricing.ratio", body: #"{"context": {}}"#)
            #expect(ratio.text.contains(#""value":2.0,"#), "\(ratio)")
            let count = try await api.send("POST", "/ofrep/v1/evaluate/flags/pricing.count", body: #"{"context": {}}"#)
            #expect(count.text.contains(#""value":2,"#), "\(count)")
        }
    }

    @Test func failuresCarryOpenFeaturesErrorCodeAndStatus() async throws {
        try await ControlAPIFixture.with { api in
            let missing = try await api.send("POST", "/ofrep/v1/evaluate/flags/nothing.here", body: #"{"context": {}}"#)
            #expect(missing.status == 404)
            #expect(try missing.json()["errorCode"]?.string == "FLAG_NOT_FOUND", "\(missing)")
            #expect(try missing.json()["key"]?.string == "nothing.here")
            let notAContext = try await api.send("POST", "/ofrep/v1/evaluate/flags/checkout.enabled", body: #"{"context": [1]}"#)
            #expect(notAContext.status == 400)
            #expect(try notAContext.json()["errorCode"]?.string == "INVALID_CONTEXT", "\(notAContext)")
            let bulk = try await api.send("POST", "/ofrep/v1/evaluate/flags", body: #"{"context": 3}"#)
            #expect(bulk.status == 400)
            #expect(try bulk.json()["errorCode"]?.string == "INVALID_CONTEXT", "\(bulk)")
            // A targetingKey that is not a string is an attribute OpenFeature's clients send as it is: left out.
            let typed = try await api.send("POST", "/ofrep/v1/evaluate/flags/checkout.enabled", body: #"{"context": {"targetingKey": 7}}"#)
            #expect(typed.status == 200, "\(typed)")
        }
    }

    @Test func theBulkAnswerCarriesAnETagThatAnswers304UntilAFlagChanges() async throws {
        try await ControlAPIFixture.with { api in
            let first = try await api.client.execute(api.request("POST", "/ofrep/v1/evaluate/flags", body: #"{"context": {}}"#), timeout: .seconds(60))
            let tag = try #require(first.headers.first(name: "ETag"))
            let body = try JSONValue.parse(Data(try await first.body.collect(upTo: 1 << 20).readableBytesView))
            let keys = body["flags"]?.array?.compactMap { $0["key"]?.string }
            #expect(keys == ["checkout.button_color", "checkout.enabled"])

            var again = api.request("POST", "/ofrep/v1/evaluate/flags", body: #"{"context": {}}"#)
            again.headers.add(name: "If-None-Match", value: tag)
            let unchanged = try await api.client.execute(again, timeout: .seconds(60))
            #expect(unchanged.status.code == 304)
            #expect(try await unchanged.body.collect(upTo: 1 << 20).readableBytes == 0)

            _ = try await api.send("PUT", "/v1/tweaks/checkout/button_color", body: #"{"value": "red"}"#)
            let changed = try await api.client.execute(again, timeout: .seconds(60))
            #expect(changed.status.code == 200)
            #expect(changed.headers.first(name: "ETag") != tag)
        }
    }

    @Test func theBulkAnswerHasTheFlagsWithoutADefaultVariantToo() async throws {
        try await ControlAPIFixture.with { api in
            let flags = try api.fixture.write("rules.flagd.json", """
                {"flags": {"beta.banner": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": null,
                  "targeting": {"if": [{"==": [{"var": "plan"}, "beta"]}, "on", null]}}}}
                """)
            try api.fixture.run("tweak.stack{ tweak.overrides(), tweak.flagd('\(flags)', 'rules') }")
            func bulk(_ context: String) async throws -> [String: JSONValue] {
                let answer = try await api.send("POST", "/ofrep/v1/evaluate/flags", body: #"{"context": \#(context)}"#)
                let entries = try #require(try answer.json()["flags"]?.array, "\(answer)")
                return Dictionary(uniqueKeysWithValues: entries.compactMap { entry in entry["key"]?.string.map { ($0, entry) } })
            }
            let beta = try #require(try await bulk(#"{"plan": "beta"}"#)["beta.banner"])
            #expect(beta["value"]?.bool == true && beta["reason"]?.string == "TARGETING_MATCH", "\(beta)")
            // Elsewhere it is still listed, with no value: the caller's default.
            let other = try #require(try await bulk(#"{"plan": "free"}"#)["beta.banner"])
            #expect(other["value"] == nil && other["reason"]?.string == "DEFAULT", "\(other)")
        }
    }

    /// The bulk answer's `metadata` is the flag sets' own, as flagd answers: a higher provider's entry
    /// wins over a lower one's; each flag's answer carries it too, under the flag's own.
    @Test func theBulkAnswerCarriesTheFlagSetsMetadata() async throws {
        try await ControlAPIFixture.with { api in
            let upper = try api.fixture.write("upper.flagd.json", """
                {"metadata": {"flagSetId": "shop", "version": "2"},
                 "flags": {"a.b": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}}}
                """)
            let lower = try api.fixture.write("lower.flagd.json", """
                {"metadata": {"flagSetId": "base", "team": "qa"},
                 "flags": {"c.d": {"state": "ENABLED", "variants": {"on": 1}, "defaultVariant": "on"}}}
                """)
            try api.fixture.run("tweak.stack{ tweak.flagd('\(upper)', 'upper'), tweak.flagd('\(lower)', 'lower') }")
            let answer = try await api.send("POST", "/ofrep/v1/evaluate/flags", body: #"{"context": {}}"#)
            let metadata = try #require(try answer.json()["metadata"], "\(answer)")
            #expect(metadata["flagSetId"]?.string == "shop")
            #expect(metadata["version"]?.string == "2")
            #expect(metadata["team"]?.string == "qa")
        }
    }

    /// A stack of the overrides over a Lua provider of a hundred flags `slow.v1`...`slow.v100`, which reads
    /// the context and takes 20 ms a flag.
    private static func addSlowFlags(to api: ControlAPIFixture) throws {
        try api.fixture.run("""
            local function busy(seconds) local stop = os.clock() + seconds while os.clock() < stop do end end
            local all = {}
            for i = 1, 100 do all[i] = {feature = 'slow', variable = 'v' .. i, value = 'x'} end
            tweak.stack{ tweak.overrides(), tweak.provider{ name = 'slow',
              get = function(feature, variable, ctx) if feature == 'slow' then busy(0.02) return 'x' end end,
              list = function() return all end } }
            """)
    }

    /// A bulk answer over a Lua provider that reads the context and takes 20 ms a flag (two seconds for
    /// a hundred) is made a slice at a time: the host's lock, which every other request and the app's own
    /// threads take, is let go between slices, so a thread that asks for it meanwhile has it before the
    /// answer ends (it waited the whole answer out before).
    @Test func aSlowBulkAnswerLetsOtherRequestsThrough() async throws {
        try await ControlAPIFixture.with { api in
            try Self.addSlowFlags(to: api)
            let (client, request) = (api.client, api.request("POST", "/ofrep/v1/evaluate/flags", body: #"{"context": {"targetingKey": "u1"}}"#))
            let bulk = Task { () -> Int in
                let answer = try await client.execute(request, timeout: .seconds(60))
                _ = try await answer.body.collect(upTo: 1 << 20)
                return Int(answer.status.code)
            }
            // Well inside the two seconds the answer takes: the lock is had within a slice or two (about
            // 20 ms each), not once the rest of the answer is made (about 1.6 s).
            try await Task.sleep(for: .milliseconds(400))
            let lock = api.host.lock
            let waited = try await onAnotherThread { () -> Duration in
                let clock = ContinuousClock()
                let asked = clock.now
                return lock.withLock { clock.now - asked }
            }
            #expect(try await bulk.value == 200)
            #expect(waited < .milliseconds(800), "the lock was had after \(waited), once the whole bulk answer was made")
        }
    }

    /// A bulk answer made a slice at a time never mixes two states of the host: overrides removed while
    /// it is under way make it begin again, so the two overridden flags answer alike.
    @Test func aBulkAnswerNeverMixesTwoStatesOfTheFlags() async throws {
        try await ControlAPIFixture.with { api in
            try Self.addSlowFlags(to: api)
            try api.fixture.run("tweak.set('slow', 'v1', 'a') tweak.set('slow', 'v100', 'a')")
            let (client, request) = (api.client, api.request("POST", "/ofrep/v1/evaluate/flags", body: #"{"context": {"targetingKey": "u1"}}"#))
            let bulk = Task { () -> String in
                let answer = try await client.execute(request, timeout: .seconds(120))
                return String(buffer: try await answer.body.collect(upTo: 1 << 20))
            }
            try await Task.sleep(for: .milliseconds(500))
            let removed = try await api.send("DELETE", "/v1/tweaks/overrides")
            #expect(removed.status == 200, "\(removed)")
            let text = try await bulk.value
            let body = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let flags = try #require(body["flags"] as? [[String: Any]])
            let values = Dictionary(uniqueKeysWithValues: flags.compactMap { flag in
                (flag["key"] as? String).map { ($0, flag["value"] as? String ?? "") }
            })
            #expect(values.count == 100)
            #expect(values["slow.v1"] == values["slow.v100"], "one answer mixed two states: v1 \(values["slow.v1"] ?? "-"), v100 \(values["slow.v100"] ?? "-")")
        }
    }
}
