import Containers
import EnvScriptOperations
import Foundation
import Hummingbird

/// The operations of the control API by which other processes learn who this host is and give it its
/// part in their changes of the home: `GET /v1/host`, `POST /v1/participation/prepare`,
/// `POST /v1/participation/finish`, `POST /v1/participation/containers-changed` and
/// `POST /v1/stores/synchronize` (see ``RemoteHostParticipants`` for the asking side).
extension ControlRoutes {
    static func registerParticipationRoutes<Context: RequestContext>(on router: Router<Context>, host: ControlHost) {
        router.get("/v1/host") { _, _ -> Response in
            await ControlResponse.handling {
                let info = try await host.runTakingPart { host in
                    let epoch = try host.containers.epoch
                    return ParticipationMessages.HostInfo(
                        pid: getpid(), appID: host.appID, home: host.home.path,
                        apiVersion: ControlRoutes.version, activeContainer: epoch.activeContainer, generation: epoch.generation)
                }
                return try ControlResponse.json(info)
            }
        }

        router.post("/v1/participation/prepare") { request, _ -> Response in
            await ControlResponse.handling {
                let message = try await decodeParticipation(
                    ParticipationMessages.Prepare.self, fields: ["switch_id", "kind", "to", "from", "asker_pid"], from: request)
                try await host.runTakingPart { host in
                    guard let kind = HomeChange.Kind(rawValue: message.kind) else {
                        throw ControlError(.badRequest, "kind must be 'switch' or 'clean', not '\(message.kind)'")
                    }
                    guard let to = try host.containers.container(uuid: message.to),
                          let from = try host.containers.container(uuid: message.from) else {
                        throw ControlError(.notFound, "no container has the UUID \(message.to.uuidString) or \(message.from.uuidString)")
                    }
                    do {
                        try host.containers.takePart(in: HomeChange(id: message.switchID, kind: kind, to: to, from: from))
                    } catch {
                        throw ControlError(.refused, "\(error)")
                    }
                    // Should the asker die before it says how the change ended, this host still catches
                    // up as soon as the home's lock is free.
                    let containers = host.containers
                    Thread.detachNewThread { try? containers.waitForChangesToEnd() }
                }
                return try ControlResponse.json(ParticipationMessages.Done())
            }
        }

        // Announcements arrive in bursts from every busy process: one re-read serves all that came
        // in while another was under way.
        let synchronization = CoalescedWork {
            try host.withHostTakingPart { host in try host.synchronizeStores() }
        }
        router.post("/v1/stores/synchronize") { _, _ -> Response in
            await ControlResponse.handling {
                try await synchronization.run()
                return try ControlResponse.json(ParticipationMessages.Done())
            }
        }

        router.post("/v1/participation/containers-changed") { request, _ -> Response in
            await ControlResponse.handling {
                let change = try await decodeParticipation(ContainerListChange.self, fields: ["kind", "uuid"], from: request)
                try host.withHostTakingPart { host in host.containers.hearListChange(change) }
                return try ControlResponse.json(ParticipationMessages.Done())
            }
        }

        router.post("/v1/participation/finish") { request, _ -> Response in
            await ControlResponse.handling {
                let message = try await decodeParticipation(
                    ParticipationMessages.Finish.self, fields: ["switch_id", "committed", "wait_seconds"], from: request)
                // The asker holds the home's lock until this answer: the hooks see the home as the change
                // left it. A host whose Lua state stays busy (a long script) says so instead of running
                // them once the asker has gone and a later change may have moved the data; it catches up
                // under the home's lock of its own (the thread the prepare step started).
                let done = try await host.runTakingPart { host in
                    try host.containers.finishTakingPart(waitingAtMost: message.lockWaitSeconds)
                }
                guard done else {
                    throw ControlError(.conflict, "the host is busy (its Lua state is in use, by a long script say) and could not reload and run its did-change hooks within \(String(format: "%g", message.lockWaitSeconds)) s; it catches up once free")
                }
                return try ControlResponse.json(ParticipationMessages.Done())
            }
        }
    }

    /// The request's JSON body as `T`, an object of the named `fields` only, none of them null; a
    /// malformed one is a `bad_request` naming what is wrong. Read first as strict JSON (see
    /// `JSONValue.init(jsonText:)`), which Foundation's decoder alone is not.
    private static func decodeParticipation<T: Decodable>(_ type: T.Type, fields: [String], from request: Request) async throws -> T {
        let buffer = try await request.body.collect(upTo: 1 << 20)
        let data = Data(buffer.readableBytesView)
        let body = try ControlRequestBody.parse(data, allowed: fields, example: "a participation message (openapi/envscript-control.json)")
        if let null = body.fields.keys.sorted().first(where: { body.fields[$0] == .null }) {
            throw ControlError(.badRequest, "field '\(null)' of the participation message is null; give its value or leave it out")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw ControlError(.badRequest, "the request body is not a valid participation message: \(error)")
        }
    }
}
