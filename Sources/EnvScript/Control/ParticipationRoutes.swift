import Containers
import Foundation
import Hummingbird
import NIOCore

/// The operations of the control API by which other processes give this host its part in their
/// changes of the home, and learn who it is: `GET /v1/host`, `POST /v1/participation/prepare` and
/// `POST /v1/participation/finish`.
enum ParticipationRoutes {
    static func register(on router: Router<BasicRequestContext>, host reference: HostReference) {
        router.get("/v1/host") { _, _ -> Response in
            try await respond {
                let host = try reference.host()
                let epoch = try host.containers.epoch
                return ParticipationMessages.HostInfo(
                    pid: getpid(), appID: host.appID, home: host.configuration.home.path, apiVersion: HostAttachment.apiVersion,
                    activeContainer: epoch.activeContainer, generation: epoch.generation)
            }
        }

        router.post("/v1/participation/prepare") { request, context -> Response in
            let message = try await decode(ParticipationMessages.Prepare.self, from: request, context: context)
            return try await respond {
                let host = try reference.host()
                guard let kind = HomeChange.Kind(rawValue: message.kind) else {
                    throw ControlFailure.badRequest("kind must be 'switch' or 'clean', not '\(message.kind)'")
                }
                guard let to = try host.containers.container(uuid: message.to),
                      let from = try host.containers.container(uuid: message.from) else {
                    throw ControlFailure.notFound("container \(message.to.uuidString) or \(message.from.uuidString)")
                }
                do {
                    try host.containers.takePart(in: HomeChange(id: message.switchID, kind: kind, to: to, from: from))
                } catch {
                    throw ControlFailure.refused("\(error)")
                }
                // Should the asker die before it says how the change ended, this host still catches
                // up as soon as the home's lock is free.
                let containers = host.containers
                Thread.detachNewThread { try? containers.waitForChangesToEnd() }
                return ParticipationMessages.Done()
            }
        }

        router.post("/v1/participation/finish") { request, context -> Response in
            _ = try await decode(ParticipationMessages.Finish.self, from: request, context: context)
            return try await respond {
                try reference.host().containers.synchronizeWithHome()
                return ParticipationMessages.Done()
            }
        }
    }
}
