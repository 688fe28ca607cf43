import EnvScriptOperations
import Hummingbird
import Tweaks

extension ControlRoutes {
    /// `/v1/tweaks`: the flags through the host's provider stack — list with sources, lookup with the
    /// reasons higher providers passed, set and delete through the stack as `tweak.set` and
    /// `tweak.delete` do, the overrides of the active container, and the stack itself with each
    /// provider's status.
    static func registerTweakRoutes<Context: RequestContext>(on router: Router<Context>, host: ControlHost) {
        router.get("/v1/tweaks") { _, _ in
            await ControlResponse.handling {
                try ControlResponse.json(try await host.run { TweakListPayload($0.tweaks.list()) })
            }
        }
        router.get("/v1/tweaks/providers") { _, _ in
            await ControlResponse.handling {
                try ControlResponse.json(try await host.run { host in
                    ProviderListPayload(providers: host.tweaks.providers.map(ProviderPayload.init))
                })
            }
        }
        router.get("/v1/tweaks/overrides") { _, _ in
            await ControlResponse.handling {
                try ControlResponse.json(try await host.run { host in
                    OverridesPayload(overrides: try host.tweaks.listOverrides().map(TweakPayload.init))
                })
            }
        }
        router.delete("/v1/tweaks/overrides") { _, _ in
            await ControlResponse.handling {
                try ControlResponse.json(try await host.run { host in
                    let outcome = try host.tweaks.deleteAllOverrides()
                    return OverridesRemovedPayload(removed: outcome.removed, providers: outcome.providers)
                })
            }
        }
        router.get("/v1/tweaks/{feature}/{variable}") { request, context in
            await ControlResponse.handling {
                let (feature, variable) = try tweakKey(context)
                let evaluationContext = try queryContext(of: request)
                return try ControlResponse.json(try await host.run { host in
                    TweakDetailsPayload(try host.tweaks.lookup(feature: feature, variable: variable, context: evaluationContext))
                })
            }
        }
        router.get("/v1/tweaks/{feature}/{variable}/explain") { _, context in
            await ControlResponse.handling {
                let (feature, variable) = try tweakKey(context)
                return try ControlResponse.json(try await host.run { host in
                    TweakExplanationPayload(host.tweaks.explain(feature: feature, variable: variable))
                })
            }
        }
        router.put("/v1/tweaks/{feature}/{variable}") { request, context in
            await ControlResponse.handling {
                let (feature, variable) = try tweakKey(context)
                let body = try await ControlRequestBody.read(
                    request, allowed: ["value", "provider"], example: #"{"value": "red"}"#)
                let value = try body.tweakValue("value")
                let provider = try body.optionalString("provider")
                return try ControlResponse.json(try await host.run { host in
                    try host.tweaks.set(value, feature: feature, variable: variable, provider: provider)
                    return TweakDetailsPayload(try host.tweaks.lookup(feature: feature, variable: variable))
                })
            }
        }
        router.delete("/v1/tweaks/{feature}/{variable}") { request, context in
            await ControlResponse.handling {
                let (feature, variable) = try tweakKey(context)
                let provider = request.uri.queryParameters["provider"].map { String($0) }
                return try ControlResponse.json(try await host.run { host in
                    try host.tweaks.delete(feature: feature, variable: variable, provider: provider)
                    let now: TweakLookup?
                    do {
                        now = try host.tweaks.lookup(feature: feature, variable: variable)
                    } catch let error as TweakError where error.code == .notFound {
                        now = nil
                    }
                    return TweakDeletedPayload(feature: feature, variable: variable, now: now.map(TweakDetailsPayload.init))
                })
            }
        }
    }

    private static func tweakKey(_ context: some RequestContext) throws -> (String, String) {
        (try ControlResponse.parameter("feature", of: context), try ControlResponse.parameter("variable", of: context))
    }

    /// The evaluation context of `?context=` (a JSON object as OpenFeature writes a context, URL-encoded);
    /// the empty context without it.
    static func queryContext(of request: Request) throws -> TweakContext {
        guard let text = request.uri.queryParameters["context"].map({ String($0) }) else { return .empty }
        do {
            return try TweakContext(jsonText: text)
        } catch let error as TweakError {
            throw ControlError(.badRequest, "the query parameter 'context': \(error.message)")
        }
    }
}
