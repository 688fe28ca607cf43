import Foundation

/// A page that sends the browser on to the panel's address, for `envscript ui --open`: the browser is
/// given this file's path, so the token never appears in its command line, which `ps` shows every
/// local user (Jupyter opens its notebooks the same way).
///
/// The file is readable by this user only (0600, in a folder of its own made 0700, whatever the umask)
/// and is removed, folder and all, by ``remove()``.
struct PanelRedirectFile {
    /// The private folder holding the page.
    let folder: URL
    /// The page.
    let url: URL

    /// Writes the page that leads to `address` into a new private folder of the temporary folder.
    init(leadingTo address: URL) throws {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("envscript-panel-XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CommandFailure(message: "cannot make a private folder for the panel's page: \(String(cString: strerror(errno)))", status: ExitStatus.failure)
        }
        folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        url = folder.appendingPathComponent("open-panel.html")
        do {
            guard chmod(folder.path, 0o700) == 0 else { throw Self.failure("chmod", folder.path) }
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw Self.failure("create", url.path) }
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw Self.failure("chmod", url.path) }
            var bytes = Array(Self.page(leadingTo: address).utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                guard written > 0 else { throw Self.failure("write", url.path) }
                bytes = bytes.dropFirst(written)
            }
        } catch {
            remove()
            throw error
        }
    }

    /// Removes the page and its folder.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The page: a refresh to `address` at once, and a link for a browser that does not follow it.
    static func page(leadingTo address: URL) -> String {
        let escaped = address.absoluteString
            .replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8">
            <meta http-equiv="refresh" content="0;url=\(escaped)">
            <title>EnvScript panel</title></head>
            <body><p><a href="\(escaped)">Open the EnvScript panel</a></p></body></html>

            """
    }

    private static func failure(_ what: String, _ path: String) -> CommandFailure {
        CommandFailure(message: "cannot \(what) \(path) for the panel's page: \(String(cString: strerror(errno)))", status: ExitStatus.failure)
    }
}
