import Foundation

/// The bodies of the participation operations of the control API (`/v1/participation/...`), by which
/// a process changing the home gives every attached host its part. See `openapi/envscript-control.json`.
enum ParticipationMessages {
    /// `POST /v1/participation/prepare`: flush and run the will-change hooks for this change.
    struct Prepare: Codable, Sendable {
        var switchID: String
        var kind: String
        var to: UUID
        var from: UUID
        var askerPID: Int32

        enum CodingKeys: String, CodingKey {
            case switchID = "switch_id", kind, to, from, askerPID = "asker_pid"
        }
    }

    /// `POST /v1/participation/finish`: the change happened (or not); catch up with the home while the
    /// asker, holding the home's lock, waits for the answer.
    struct Finish: Codable, Sendable {
        var switchID: String
        var committed: Bool
        /// How long the asker waits for the answer, in seconds; nil from an asker that does not say.
        var waitSeconds: Double?

        enum CodingKeys: String, CodingKey {
            case switchID = "switch_id", committed, waitSeconds = "wait_seconds"
        }

        /// How long the host waits for its Lua state to be free before it answers that it is busy:
        /// half the asker's wait, so that the hooks have the other half and the answer comes in time.
        var lockWaitSeconds: Double { (waitSeconds ?? 10) / 2 }
    }

    /// `{"ok": true}`.
    struct Done: Codable, Sendable {
        var ok = true
    }

    /// `GET /v1/host`.
    struct HostInfo: Codable, Sendable {
        var pid: Int32
        var appID: String
        var home: String
        var apiVersion: Int
        var activeContainer: UUID
        var generation: UInt64

        enum CodingKeys: String, CodingKey {
            case pid, appID = "app_id", home, apiVersion = "api_version", activeContainer = "active_container", generation
        }
    }
}
