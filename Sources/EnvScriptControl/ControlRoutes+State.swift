import AppState
import EnvScriptOperations
import Hummingbird

extension ControlRoutes {
    /// `/v1/state`: the declared keys with their kind and value; get, set and reset one. Values cross as
    /// the `state` module's values (`JSONValue`), so what a request sets is what `state.get`
    /// returns in Lua.
    static func registerStateRoutes<Context: RequestContext>(on router: Router<Context>, host: ControlHost) {
        router.get("/v1/state") { _, _ in
            await ControlResponse.handling {
                try ControlResponse.json(try await host.run { try StateListPayload($0.application) })
            }
        }
        router.get("/v1/state/{key}") { _, context in
            await ControlResponse.handling {
                let key = try ControlResponse.parameter("key", of: context)
                return try ControlResponse.json(try await host.run { try StateEntryPayload(key: key, in: $0.application) })
            }
        }
        router.put("/v1/state/{key}") { request, context in
            await ControlResponse.handling {
                let key = try ControlResponse.parameter("key", of: context)
                let body = try await ControlRequestBody.read(request, allowed: ["value"], example: #"{"value": "alice"}"#)
                let value = try body.value("value").readingFloatMarkers()
                return try ControlResponse.json(try await host.run { host in
                    try host.application.setScriptValue(value, forKey: key)
                    return try StateEntryPayload(key: key, in: host.application)
                })
            }
        }
        router.delete("/v1/state/{key}") { _, context in
            await ControlResponse.handling {
                let key = try ControlResponse.parameter("key", of: context)
                return try ControlResponse.json(try await host.run { host in
                    try host.application.reset(key: key)
                    return try StateEntryPayload(key: key, in: host.application)
                })
            }
        }
    }
}
