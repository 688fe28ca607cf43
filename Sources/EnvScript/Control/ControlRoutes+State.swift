import AppState
import Hummingbird

extension ControlRoutes {
    /// `/v1/state`: the declared keys with their kind and value; get, set and reset one. Values cross as
    /// the `state` module's values (``ScriptValue``), so what a request sets is what `state.get`
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
                let value = try body.value("value")
                return try ControlResponse.json(try await host.run { host in
                    try setState(value, forKey: key, in: host.application)
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

    /// Sets state as `state.set` does; state declared from Swift with a plain type (`Bool`, `Int`,
    /// `Double`, `String`) takes the plain value instead, an integer widening to a `Double`.
    static func setState(_ value: ScriptValue, forKey key: String, in application: AppState.Application) throws {
        do {
            try application.setValue(value, forKey: key)
        } catch AppStateError.typeMismatch(let mismatchKey, let declared, let requested) {
            let plain: [any Sendable]
            switch value {
            case .bool(let flag): plain = [flag]
            case .int(let number): plain = [number, Double(number)]
            case .double(let number): plain = [number]
            case .string(let text): plain = [text]
            default: plain = []
            }
            for candidate in plain {
                do {
                    try application.setValue(candidate, forKey: key)
                    return
                } catch AppStateError.typeMismatch {
                    continue
                }
            }
            throw AppStateError.typeMismatch(key: mismatchKey, declared: declared, requested: requested)
        }
    }
}
