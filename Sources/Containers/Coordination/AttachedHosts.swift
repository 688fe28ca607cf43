package import Foundation
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// What a host attached to a home is to the other processes of that home.
public enum AttachedHostRole: String, Codable, Sendable {
    /// An application: the process whose flags and state a panel of the home shows.
    case application
    /// A tool working on the home for a while, such as the `envscript` command or its panel.
    case tool
}

/// What a running host publishes about itself in the home's bookkeeping (`hosts/<id>.json`), so that
/// other processes can reach it before and after every change of the home.
public struct AttachedHostRecord: Codable, Sendable, Equatable {
    /// Unique for the attachment: two hosts of one process have different ids.
    public var id: String
    /// The host's process.
    public var pid: Int32
    /// Where its control API listens: the path of a Unix domain socket; empty for a host without one
    /// (``hasControlSocket``).
    public var socketPath: String
    /// The application identifier it opened the home with.
    public var appID: String
    /// When it attached.
    package var attachedAt: Date
    /// The version of the control API it speaks; ``noControlSocket`` for a host built without the
    /// control part (EnvScript's `Control` trait), which cannot take part in another process's switch.
    package var apiVersion: Int

    /// The ``apiVersion`` of a host that serves no control API.
    package static let noControlSocket = 0

    /// Whether the host serves the control API, and so can take part in another process's switch.
    public var hasControlSocket: Bool { apiVersion != Self.noControlSocket && !socketPath.isEmpty }
    /// An application or a tool; records written before roles existed read as applications.
    public var role: AttachedHostRole
    /// The name of the host's program, for people to recognise it ("MyApp", "envscript").
    package var program: String

    /// A record.
    package init(
        id: String, pid: Int32, socketPath: String, appID: String, attachedAt: Date, apiVersion: Int,
        role: AttachedHostRole = .application, program: String = ProcessInfo.processInfo.processName
    ) {
        self.id = id
        self.pid = pid
        self.socketPath = socketPath
        self.appID = appID
        self.attachedAt = attachedAt
        self.apiVersion = apiVersion
        self.role = role
        self.program = program
    }

    private enum CodingKeys: String, CodingKey {
        case id, pid, socketPath, appID, attachedAt, apiVersion, role, program
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        pid = try container.decode(Int32.self, forKey: .pid)
        socketPath = try container.decode(String.self, forKey: .socketPath)
        appID = try container.decode(String.self, forKey: .appID)
        attachedAt = try container.decode(Date.self, forKey: .attachedAt)
        apiVersion = try container.decode(Int.self, forKey: .apiVersion)
        role = try container.decodeIfPresent(AttachedHostRole.self, forKey: .role) ?? .application
        program = try container.decodeIfPresent(String.self, forKey: .program) ?? ""
    }
}

/// The hosts attached to a home: `<home>/.envscript-containers/hosts/`.
///
/// A host holds an exclusive `flock(2)` on `hosts/<id>.lock` for as long as it is attached; the
/// operating system drops it when the process dies, however it dies. So liveness needs no heartbeat
/// and no timeout: a record whose lock can be taken belongs to a dead host, and is removed by whoever
/// notices. The folder is part of the bookkeeping, never switched and never listed as a container;
/// ``AppContainer/reset()`` keeps it.
package struct AttachedHosts: Sendable {
    let layout: HomeLayout

    /// The attached hosts of `home`.
    package init(home: URL) {
        layout = HomeLayout(home: home)
    }

    init(layout: HomeLayout) {
        self.layout = layout
    }

    /// The folder of the records.
    package var folder: String { layout.hosts }

    /// The socket path for attachment `id`: in the hosts folder, or — when that path is too long for a
    /// Unix domain socket (108 bytes on Linux) — in a per-user folder of the system's temporary
    /// directory (`$TMPDIR/envscript-<uid>`), named after the id. The record always says which. Make
    /// its folder with `makeSocketFolder(for:)` (package) before listening there.
    package func socketPath(forID id: String) -> String {
        let preferred = layout.hosts + "/" + id + ".sock"
        if preferred.utf8.count < 100 { return preferred }
        let temporary = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        return temporary + "envscript-\(getuid())/" + id + ".sock"
    }

    /// Makes the folder of `socketPath` (see ``socketPath(forID:)``) ready for a host's socket: a folder
    /// of this user's alone, mode 700 whatever the umask. A folder that another user made first, a link in
    /// its place, or one that others may write is refused, never used: whoever controls the folder could
    /// put a socket of theirs in the host's place and refuse or watch every switch.
    ///
    /// - Throws: ``ContainerError/Code/unsafeFolder`` saying what is wrong and what to do.
    package static func makeSocketFolder(for socketPath: String) throws {
        try PrivateFolder.make((socketPath as NSString).deletingLastPathComponent)
    }

    /// Checks, before connecting to the socket of a host's record, that nobody but this user can have put
    /// it there: its folder is this user's and nobody else may write in it.
    ///
    /// - Throws: ``ContainerError/Code/unsafeFolder`` saying what is wrong and what to do.
    package static func checkSocketFolder(of socketPath: String) throws {
        try PrivateFolder.check((socketPath as NSString).deletingLastPathComponent)
    }

    /// Takes the liveness lock of a new attachment. Publish the record with `Attachment.publish(_:)`
    /// once the socket listens.
    package func attach(id: String) throws -> Attachment {
        try FileSystem.makePrivateDirectory(layout.bookkeeping)
        try PrivateFolder.make(layout.hosts)
        let lockPath = layout.hosts + "/" + id + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ContainerError.io(path: lockPath, underlying: SystemCallError("open")) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = SystemCallError("flock")
            close(descriptor)
            throw ContainerError.io(path: lockPath, underlying: failure)
        }
        return Attachment(layout: layout, id: id, descriptor: descriptor)
    }

    /// The records of the hosts alive now, oldest first; records of dead hosts are removed on the way.
    package func live() throws -> [AttachedHostRecord] {
        guard try FileSystem.kind(at: layout.hosts) == .directory else { return [] }
        var records: [AttachedHostRecord] = []
        for entry in try FileSystem.list(layout.hosts) where entry.name.hasSuffix(".json") {
            let id = String(entry.name.dropLast(".json".count))
            let recordPath = layout.hosts + "/" + entry.name
            guard let data = try FileSystem.read(recordPath) else { continue }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            guard let record = try? decoder.decode(AttachedHostRecord.self, from: data) else {
                // A record that does not parse belongs to nobody reachable; a live writer never leaves one
                // (records are written atomically), so it is debris.
                if try !isLocked(id) { Attachment.removeFiles(layout: layout, id: id, socketPath: nil) }
                continue
            }
            if try isLocked(id) {
                records.append(record)
            } else {
                Attachment.removeFiles(layout: layout, id: id, socketPath: record.socketPath)
            }
        }
        return records.sorted { $0.attachedAt < $1.attachedAt }
    }

    /// Whether the liveness lock of `id` is held by some process.
    private func isLocked(_ id: String) throws -> Bool {
        let lockPath = layout.hosts + "/" + id + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CLOEXEC)
        if descriptor < 0 { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return false }
        return errno == EWOULDBLOCK
    }
}

/// One host's attachment to its home: the liveness lock, held until ``detach()`` or the process ends.
package final class Attachment: @unchecked Sendable {
    /// The attachment's id.
    package let id: String
    private let layout: HomeLayout
    private var descriptor: Int32
    private var socketPath: String?
    private let lock = NSLock()

    init(layout: HomeLayout, id: String, descriptor: Int32) {
        self.layout = layout
        self.id = id
        self.descriptor = descriptor
    }

    deinit { detach() }

    /// A record encoded, its folder made ready, waiting for `publish(_:)` to write it in one step.
    package struct PreparedRecord: Sendable {
        /// The record.
        package let record: AttachedHostRecord
        let data: Data
    }

    /// Encodes `record` and makes its folder ready (made, and cleared of killed writers' temporary files),
    /// so that publishing it later is one write: a host prepares its record while it opens.
    package func prepare(_ record: AttachedHostRecord) throws -> PreparedRecord {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(record)
        } catch {
            throw ContainerError.io(path: layout.hosts, underlying: error)
        }
        try PrivateFolder.make(layout.hosts)
        // Records written by hosts that were killed mid-write leave their temporary files here.
        WriterTemporaryFile.removeAbandoned(in: layout.hosts)
        return PreparedRecord(record: record, data: data)
    }

    /// Writes the record other processes find the host by.
    package func publish(_ prepared: PreparedRecord) throws {
        lock.withLock { socketPath = prepared.record.socketPath }
        // Atomic, not durable: the record means nothing once its process is gone, and its liveness lock
        // says so after any crash.
        try FileSystem.writeAtomically(prepared.data, to: layout.hosts + "/" + id + ".json", durably: false)
    }

    /// Writes the record other processes find the host by: `prepare(_:)` and `publish(_:)`.
    package func publish(_ record: AttachedHostRecord) throws {
        try publish(prepare(record))
    }

    /// Removes the record and the socket, and releases the lock. Calling it again does nothing.
    package func detach() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            Self.removeFiles(layout: layout, id: id, socketPath: socketPath)
            close(descriptor)
            descriptor = -1
        }
    }

    static func removeFiles(layout: HomeLayout, id: String, socketPath: String?) {
        unlink(layout.hosts + "/" + id + ".json")
        if let socketPath { unlink(socketPath) }
        unlink(layout.hosts + "/" + id + ".lock")
    }
}
