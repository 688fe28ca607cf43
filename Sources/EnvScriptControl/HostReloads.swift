import AsyncHTTPClient
import NIOCore
package import Containers
package import EnvScriptOperations
package import Foundation

/// Asks every running host attached to a home to reload its start-up scripts, all at once, through their
/// control sockets (`POST /v1/reload`): what `envscript reload` does.
package enum HostReloads {
    /// How one host answered.
    package struct Outcome: Sendable {
        /// The host asked.
        package let host: AttachedHostRecord
        /// What its reload put in force, or why its scripts stayed as they were.
        package let result: Result<ScriptReloadReport, Failure>
    }

    /// Why a host kept its scripts: its reload failed (the message names the script's file and line), or
    /// it could not be asked.
    package struct Failure: Error, Sendable {
        package let message: String
    }

    /// Asks each live host of `home` in turn (all the requests out at once) and returns their outcomes
    /// in the order of the home's records; each answers within `timeout`.
    package static func reloadAll(home: URL, timeout: Duration) throws -> [Outcome] {
        let hosts = try AttachedHosts(home: home).live()
        let requests = hosts.map { record in
            (record, Result { () throws -> EventLoopFutureOfResponse in
                guard record.hasControlSocket else {
                    throw Failure(message: "it was built without EnvScript's Control trait and serves no control socket, so it cannot be asked; restart it instead")
                }
                return try AttachedHostRequest.post([String: String](), to: "/v1/reload", of: record, timeout: timeout)
            })
        }
        return requests.map { record, request in
            Outcome(host: record, result: Result {
                let response = try request.get().wait()
                guard response.status == .ok else { throw Failure(message: AttachedHostRequest.failureMessage(response)) }
                guard var body = response.body, let data = body.readData(length: body.readableBytes) else {
                    throw Failure(message: "its answer had no body")
                }
                return try JSONDecoder().decode(ScriptReloadReport.self, from: data)
            }.mapError { error in
                (error as? Failure) ?? Failure(message: "it did not answer: \(error)")
            })
        }
    }

    private typealias EventLoopFutureOfResponse = NIOCore.EventLoopFuture<HTTPClient.Response>
}
