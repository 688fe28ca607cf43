import EnvScript
import Foundation
import Hummingbird

/// The panel's scenario routes, beside the control API (an app's control socket runs no scenarios):
///
/// - `GET /v1/scenarios`: the folder, its scenario files and the latest run.
/// - `POST /v1/scenarios/runs` with `{"files": [...]}` (every file when absent or empty): starts a run,
///   answers 202 with `{"run": N}`; 409 while another run is going on.
/// - `GET /v1/scenarios/events`: server-sent events — `run` with the latest run on connecting and
///   whenever a run starts, learns its test count or ends; `result` after each test.
enum PanelScenarioRoutes {
    static func register<Context: RequestContext>(on router: Router<Context>, board: ScenarioRunBoard) {
        router.get("/v1/scenarios") { _, _ in
            await ControlResponse.handling {
                try ControlResponse.json(Listing(
                    folder: board.scenarios.folder.path, files: try board.scenarios.files(), run: board.latest))
            }
        }
        router.post("/v1/scenarios/runs") { request, _ in
            await ControlResponse.handling {
                let body = try await ControlRequestBody.read(request, allowed: ["files"], example: #"{"files": ["login.lua"]}"#)
                let files = try body.stringArray("files") ?? []
                return try ControlResponse.json(Started(run: try board.start(files: files)), status: .accepted)
            }
        }
        router.get("/v1/scenarios/events") { request, _ in
            ServerSentEvents.response(to: request) { send in
                for await event in board.watch() { try await send(try event.wireText()) }
            }
        }
    }

    private struct Listing: Encodable {
        let folder: String
        let files: [String]
        let run: ScenarioRunPayload?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(folder, forKey: .folder)
            try container.encode(files, forKey: .files)
            try container.encode(run, forKey: .run) // `null` before the first run
        }

        enum CodingKeys: String, CodingKey { case folder, files, run }
    }

    private struct Started: Encodable {
        let run: Int
    }
}
