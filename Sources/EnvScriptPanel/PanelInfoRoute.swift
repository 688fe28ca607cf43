import Containers
import EnvScript
import Foundation
import Hummingbird

/// `GET /v1/panel`: whose data the page shows — `{"home": path, "shows": {...}}`, where `shows` is
/// `{"kind": "application", "pid", "program", "app_id"}` for an application (the panel's own, or the one
/// attached to the home that a following panel forwards to) or `{"kind": "home"}` when a following
/// panel serves the home itself because no application is attached.
enum PanelInfoRoute {
    /// What the panel shows when it does not follow the home's application: the application it is part of.
    struct Own: Sendable {
        let home: String
        let appID: String
    }

    static func register<Context: RequestContext>(on router: Router<Context>, own: Own, target: PanelTarget?) {
        router.get("/v1/panel") { _, _ in
            await ControlResponse.handling {
                let shown: Shown
                if let target {
                    shown = target.application().map {
                        Shown(kind: "application", pid: $0.pid, program: $0.program, appID: $0.appID)
                    } ?? Shown(kind: "home", pid: nil, program: nil, appID: nil)
                } else {
                    shown = Shown(kind: "application", pid: getpid(), program: ProcessInfo.processInfo.processName, appID: own.appID)
                }
                return try ControlResponse.json(Answer(home: own.home, shows: shown))
            }
        }
    }

    private struct Answer: Encodable {
        let home: String
        let shows: Shown
    }

    private struct Shown: Encodable {
        let kind: String
        let pid: Int32?
        let program: String?
        let appID: String?

        enum CodingKeys: String, CodingKey {
            case kind, pid, program
            case appID = "app_id"
        }
    }
}
