import JSONValues
#if Sharing
import ContainerSharing
import Containers
import EnvScriptOperations
import Foundation
import Hummingbird

extension ControlRoutes {
    /// The most bytes an archive sent to `POST /v1/containers/import` may have.
    package static let importedArchiveMaximumSize = 1 << 30

    /// `/v1/containers/{id}/export`, `/v1/containers/import` and `/v1/containers/{id}/diff/{other}`:
    /// containers as portable archives, as `envscript container export|import|diff` makes them.
    static func registerSharingRoutes<Context: RequestContext>(on router: Router<Context>, host: ControlHost) {
        router.get("/v1/containers/{id}/export") { _, context in
            await ControlResponse.handling {
                let id = try ControlResponse.parameter("id", of: context)
                let (name, archive) = try await host.run { host -> (String, Data) in
                    let file = try TemporaryArchive()
                    defer { file.remove() }
                    let manifest = try host.containerOperations.export(id, to: file.url)
                    return (manifest.container.name, try Data(contentsOf: file.url))
                }
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "application/zip", .contentLength: String(archive.count),
                        .contentDisposition: "attachment; filename=\"\(attachmentName(name))\"",
                    ],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: archive)))
            }
        }
        // The literal segment wins over "{id}": a container named "import" is addressed by its UUID.
        router.post("/v1/containers/import") { request, _ in
            await ControlResponse.handling {
                let name = request.uri.queryParameters.get("name")
                let file = try TemporaryArchive()
                defer { file.remove() }
                // Written as it arrives, without the host's lock: only a whole archive waits for it.
                try await file.receive(request.body, upTo: importedArchiveMaximumSize)
                let created = try await host.run { try $0.containerOperations.import(from: file.url, name: name) }
                return try ControlResponse.json(created, status: .created)
            }
        }
        router.get("/v1/containers/{id}/diff/{other}") { _, context in
            await ControlResponse.handling {
                let first = try ControlResponse.parameter("id", of: context)
                let second = try ControlResponse.parameter("other", of: context)
                return try ControlResponse.json(try await host.run { host in
                    let operations = host.containerOperations
                    let diff = try operations.diff(
                        .container(try operations.resolve(first)), .container(try operations.resolve(second)))
                    return try JSONValue(diffOf: diff)
                })
            }
        }
    }

    /// A container's name as a download's file name: letters, digits, `-`, `_` and `.` kept, the rest `_`.
    static func attachmentName(_ name: String) -> String {
        let kept = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        return String(kept) + ".zip"
    }
}

/// A file for an archive on its way in or out, in a folder of the system's temporary folder that only
/// this user can enter (mode 700, from `mkdtemp(3)`), since it holds a container's data; removed,
/// folder and all, by ``remove()``.
struct TemporaryArchive {
    let folder: URL
    let url: URL

    init() throws {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("envscript-archive-XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ControlError(.failed, "cannot make a private temporary folder for the archive: \(String(cString: strerror(errno)))")
        }
        folder = URL(fileURLWithPath: String(cString: made))
        url = folder.appendingPathComponent("container.zip")
        // mkdtemp's 0700 passes through the umask: set it whatever the umask.
        guard chmod(folder.path, 0o700) == 0 else {
            let reason = String(cString: strerror(errno))
            remove()
            throw ControlError(.failed, "cannot make the archive's temporary folder private: \(reason)")
        }
    }

    /// Writes `body` to the file (mode 0600) as it arrives; a body past `limit` bytes is refused,
    /// `bad_request`.
    ///
    /// Every step of a handler runs on the one event-loop thread all servers of the process share, so
    /// nothing here copies the bytes on it: the buffers as they came are handed, a few MiB at a time, to
    /// a thread of ``BlockingWork`` that writes them.
    func receive(_ body: RequestBody, upTo limit: Int) async throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ControlError(.failed, "cannot create the archive's temporary file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var received = 0
        var pending: [ByteBuffer] = []
        var pendingBytes = 0
        for try await buffer in body {
            received += buffer.readableBytes
            guard received <= limit else {
                throw ControlError(.badRequest, "the archive is larger than \(limit >> 20) MiB, the most the control API imports; import it with envscript container import")
            }
            pending.append(buffer)
            pendingBytes += buffer.readableBytes
            if pendingBytes >= 4 << 20 {
                try await Self.append(pending, to: descriptor)
                pending.removeAll(keepingCapacity: true)
                pendingBytes = 0
            }
        }
        try await Self.append(pending, to: descriptor)
    }

    private static func append(_ buffers: [ByteBuffer], to descriptor: Int32) async throws {
        guard !buffers.isEmpty else { return }
        try await BlockingWork.run {
            for buffer in buffers {
                try buffer.withUnsafeReadableBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                        guard written > 0 else {
                            throw ControlError(.failed, "cannot write the archive's temporary file: \(String(cString: strerror(errno)))")
                        }
                        offset += written
                    }
                }
            }
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
#endif
