package import Containers
import EnvScriptOperations
package import Foundation
import Locking

/// Everything of a host that the `Control` trait brings, started as it opens and stopped as it closes:
/// its attachment to the home (the control socket and the record other processes find it by), the part
/// other attached hosts get in its changes (``RemoteHostParticipants``), the announcement of its writes
/// to the stores, and its OFREP listener (`HostConfiguration/ofrepListener`).
package final class HostControlPlane: Sendable {
    /// The attachment, while attached.
    private let attachment = Locked<HostAttachment?>(nil)
    private let ofrepServer = Locked<BackgroundServer?>(nil)
    private let announcer: StoreChangeAnnouncer

    /// An attachment begun before the host opens its Lua state (see ``HostAttachment/begin(home:appID:role:limits:)``).
    package struct Opening {
        fileprivate let attaching: HostAttachment.Starting?

        /// Undoes what was begun, for a host that did not open.
        package func abandon() { attaching?.abandon() }
    }

    /// Takes the liveness lock and starts the control server on a thread of its own, when the host
    /// attaches; finish with ``init(completing:host:)``.
    package static func begin(
        attaching: Bool, home: URL, appID: String, role: AttachedHostRole, limits: ServerLimits
    ) throws -> Opening {
        Opening(attaching: attaching ? try HostAttachment.begin(home: home, appID: appID, role: role, limits: limits) : nil)
    }

    /// Starts the OFREP listener, publishes the attachment, and gives the home's other attached hosts
    /// their part in `host`'s changes and writes.
    ///
    /// - Throws: ``HostError/Code/ofrepListenerFailed``, ``HostError/Code/attachmentFailed``.
    package init(
        completing opening: Opening, host: any ControlledHost, ofrepListener: OFREPListener?, participationTimeout: Duration
    ) throws {
        let server = try ofrepListener.map { try OFREPListenerServer.start($0, host: ControlHost(host)) }
        ofrepServer.withLock { $0 = server }
        let attachment: HostAttachment?
        do {
            attachment = try opening.attaching.map { try HostAttachment(completing: $0, host: host) }
        } catch {
            server?.stop()
            throw error
        }
        self.attachment.withLock { $0 = attachment }
        let participants = RemoteHostParticipants(
            home: host.home, ownID: attachment?.record.id, timeout: participationTimeout,
            logger: host.logger)
        host.containers.remoteParticipants = participants
        announcer = StoreChangeAnnouncer(participants: participants)
        host.observeStoreWrites { [announcer] in announcer.noteWrite() }
    }

    /// The record other processes find the host by while it is attached, or nil.
    package var record: AttachedHostRecord? { attachment.withLock { $0?.record } }

    /// The port of the OFREP listener while it serves, or nil.
    package var ofrepListenerPort: Int? { ofrepServer.withLock { $0?.port } }

    /// Detaches, once: no other process finds the host from then on, then the control server finishes
    /// the requests under way and stops, and so does the OFREP listener. `catchUp` runs first, when the
    /// host was attached: a change another process is making with this host's part prepared ends.
    package func stopServing(of host: any ControlledHost, catchUp: () -> Void) {
        let attachment = self.attachment.withLock { attachment in
            defer { attachment = nil }
            return attachment
        }
        if let attachment {
            catchUp()
            ControlRoutes.finishEventStreams(of: host)
            attachment.stop()
        }
        ofrepServer.withLock { server in
            defer { server = nil }
            return server
        }?.stop()
    }

    /// Sends the announcement of writes still pending, and waits for the other hosts' answers.
    package func flushAnnouncements() {
        announcer.flush()
    }
}
