import Containers
import EnvScriptOperations
import Hummingbird

extension ControlRoutes {
    /// `/v1/containers`: list, get, create, activate, clone, update, clean, delete and reset — the
    /// `container` module over HTTP. Containers are named in paths by name or UUID. Switches run every
    /// will-change and did-change hook, exactly as from Lua; a refusal answers `409 refused`.
    static func registerContainerRoutes<Context: RequestContext>(on router: Router<Context>, host: ControlHost) {
        router.get("/v1/containers") { _, _ in
            await ControlResponse.handling {
                try ControlResponse.json(try await host.run { try $0.containerOperations.list() })
            }
        }
        router.post("/v1/containers") { request, _ in
            await ControlResponse.handling {
                let body = try await ControlRequestBody.read(
                    request, allowed: ["name", "description"], example: #"{"name": "Debug", "description": "QA login"}"#)
                let name = try body.string("name")
                let description = try body.optionalString("description")
                let created = try await host.run { host in
                    try host.containerOperations.create(name: name, description: description)
                }
                return try ControlResponse.json(created, status: .created)
            }
        }
        // The literal segment wins over "{id}": a container named "reset" is addressed by its UUID.
        router.post("/v1/containers/reset") { _, _ in
            await ControlResponse.handling {
                let after = try await host.run { host in
                    let operations = host.containerOperations
                    _ = try operations.reset()
                    return try operations.list()
                }
                return try ControlResponse.json(after)
            }
        }
        router.get("/v1/containers/{id}") { _, context in
            await ControlResponse.handling {
                let id = try ControlResponse.parameter("id", of: context)
                return try ControlResponse.json(try await host.run { try $0.containerOperations.info(id) })
            }
        }
        router.post("/v1/containers/{id}/activate") { _, context in
            await ControlResponse.handling {
                let id = try ControlResponse.parameter("id", of: context)
                return try ControlResponse.json(try await host.run { try $0.containerOperations.activate(id).container })
            }
        }
        router.post("/v1/containers/{id}/clone") { request, context in
            await ControlResponse.handling {
                let id = try ControlResponse.parameter("id", of: context)
                let body = try await ControlRequestBody.read(
                    request, allowed: ["name", "description"], example: #"{"name": "Staging copy"}"#)
                let name = try body.string("name")
                let description = try body.optionalString("description")
                let copy = try await host.run { host in
                    try host.containerOperations.clone(id, name: name, description: description)
                }
                return try ControlResponse.json(copy, status: .created)
            }
        }
        router.patch("/v1/containers/{id}") { request, context in
            await ControlResponse.handling {
                let id = try ControlResponse.parameter("id", of: context)
                let body = try await ControlRequestBody.read(
                    request, allowed: ["name", "description"], example: #"{"description": "QA login"}"#)
                let name = try body.optionalString("name")
                let description = try body.optionalString("description")
                if name == nil && description == nil {
                    throw ControlError(.badRequest, "nothing to change: give 'name', 'description' or both (an empty description removes it)")
                }
                return try ControlResponse.json(try await host.run { host in
                    try host.containerOperations.update(id, name: name, description: description)
                })
            }
        }
        router.post("/v1/containers/{id}/clean") { _, context in
            await ControlResponse.handling {
                let id = try ControlResponse.parameter("id", of: context)
                return try ControlResponse.json(try await host.run { try $0.containerOperations.clean(id).container })
            }
        }
        router.delete("/v1/containers/{id}") { _, context in
            await ControlResponse.handling {
                let id = try ControlResponse.parameter("id", of: context)
                return try ControlResponse.json(try await host.run { host in
                    _ = try host.containerOperations.delete(id)
                    return OKPayload()
                })
            }
        }
    }
}
