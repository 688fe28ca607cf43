import AsyncHTTPClient
import Containers
import Foundation
import Locking
import Logging
import NIOCore
import NIOHTTP1

/// The hosts attached to a home, reached through their control sockets with AsyncHTTPClient: every
/// change a host (or the command line) makes gives them their part. See `RemoteParticipants`.
final class RemoteHostParticipants: RemoteParticipants {
    private let hosts: AttachedHosts
    /// The attachment of the host this belongs to, which takes its part in-process.
    private let ownID: String?
    private let timeout: Duration
    private let logger: Logger

    init(home: URL, ownID: String?, timeout: Duration, logger: Logger) {
        hosts = AttachedHosts(home: home)
        self.ownID = ownID
        self.timeout = timeout
        self.logger = logger
    }

    func prepare(_ change: HomeChange) throws -> PreparedHomeChange {
        let others = try hosts.live().filter { $0.id != ownID }
        guard !others.isEmpty else { return PreparedHomeChange(change: change, participants: []) }
        if let blind = others.first(where: { !$0.hasControlSocket }) {
            throw ParticipationError.cannotTakePart(pid: blind.pid, program: blind.program)
        }
        let message = ParticipationMessages.Prepare(
            switchID: change.id, kind: change.kind.rawValue, to: change.to.uuid, from: change.from.uuid, askerPID: getpid())
        // All at once: a change waits for the slowest host, not for the sum of them.
        let requests = try others.map { record in (record, try post(message, to: "/v1/participation/prepare", of: record)) }
        var prepared: [AttachedHostRecord] = []
        var failure: ParticipationError?
        for (record, request) in requests {
            do {
                let response = try request.wait()
                if response.status == .ok {
                    prepared.append(record)
                } else if failure == nil {
                    failure = .refused(pid: record.pid, message: AttachedHostRequest.failureMessage(response))
                }
            } catch {
                // A host that died meanwhile has nothing to take part in.
                let stillAlive = (try? hosts.live().contains { $0.id == record.id }) ?? true
                if stillAlive, failure == nil { failure = describe(error, of: record) }
            }
        }
        let outcome = PreparedHomeChange(change: change, participants: prepared.map(\.pid), context: prepared.map(\.id))
        if let failure {
            finish(outcome, committed: false)
            throw failure
        }
        return outcome
    }

    @discardableResult
    func finish(_ prepared: PreparedHomeChange, committed: Bool) -> [Int32] {
        guard !prepared.context.isEmpty else { return [] }
        let message = ParticipationMessages.Finish(
            switchID: prepared.change.id, committed: committed, waitSeconds: timeout.inSeconds)
        let records = (try? hosts.live()) ?? []
        let requests = records.filter { prepared.context.contains($0.id) }.map { record in
            (record, Result { try post(message, to: "/v1/participation/finish", of: record) })
        }
        var late: [Int32] = []
        for (record, request) in requests {
            do {
                let response = try request.get().wait()
                guard response.status == .ok else {
                    throw ParticipationError.refused(pid: record.pid, message: AttachedHostRequest.failureMessage(response))
                }
            } catch {
                // A host that died meanwhile has nothing left to do.
                guard (try? hosts.live().contains { $0.id == record.id }) ?? true else { continue }
                logger.debug("running host pid \(record.pid) did not finish its part in the change in time: \(error); it catches up once free")
                late.append(record.pid)
            }
        }
        return late
    }

    /// Asks every other attached host to adopt what this process wrote to the stores (best effort:
    /// a host that does not answer in time catches up at its next flush or switch).
    func announceStoreChanges() {
        tellOthers(ParticipationMessages.Done(), at: "/v1/stores/synchronize", what: "the store changes")
    }

    /// Tells every other attached host that the list of containers changed (best effort: a host that
    /// does not answer in time shows the list as it reads it next).
    func announce(_ change: ContainerListChange) {
        tellOthers(change, at: "/v1/participation/containers-changed", what: "the change of the containers")
    }

    /// Posts `body` to `path` of every other attached host at once and waits for their answers, logging
    /// those that did not hear it.
    private func tellOthers<Body: Encodable>(_ body: Body, at path: String, what: String) {
        let others = ((try? hosts.live()) ?? []).filter { $0.id != ownID && $0.hasControlSocket }
        let requests = others.compactMap { record in
            (try? post(body, to: path, of: record)).map { (record, $0) }
        }
        for (record, request) in requests {
            do {
                _ = try request.wait()
            } catch {
                logger.debug("running host pid \(record.pid) was not told of \(what): \(error)")
            }
        }
    }

    private func post<Body: Encodable>(
        _ body: Body, to path: String, of record: AttachedHostRecord
    ) throws -> EventLoopFuture<HTTPClient.Response> {
        try AttachedHostRequest.post(body, to: path, of: record, timeout: timeout)
    }

    private func describe(_ error: any Error, of record: AttachedHostRecord) -> ParticipationError {
        if let clientError = error as? HTTPClientError,
           clientError == .deadlineExceeded || clientError == .readTimeout || clientError == .connectTimeout {
            return .noAnswer(pid: record.pid, seconds: timeout.inSeconds)
        }
        return .unreachable(pid: record.pid, socket: record.socketPath, reason: "\(error)")
    }
}
