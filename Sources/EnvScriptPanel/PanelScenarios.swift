package import EnvScript
package import Foundation

/// The scenarios a panel offers to run: the Lua files of a folder, each run in a host of its own over a
/// fresh temporary home (as `envscript run` does without `--home`), so a run never changes the home the
/// panel shows.
public struct PanelScenarios: Sendable {
    /// The folder whose `.lua` files (at any depth) are the scenario files.
    package var folder: URL
    /// Makes the host of one run over the fresh `home` it is given, with the files about to run (a
    /// command line passes them to its Lua options as `envscript run` does). It runs whatever start-up
    /// scripts the application needs.
    package var makeHost: @Sendable (_ home: URL, _ files: [String]) throws -> EnvScriptHost

    /// Scenarios of `folder`, run in hosts that `makeHost` opens.
    package init(folder: URL, makeHost: @escaping @Sendable (_ home: URL, _ files: [String]) throws -> EnvScriptHost) {
        self.folder = folder
        self.makeHost = makeHost
    }

    /// Scenarios of `folder`, run in hosts configured as `configuration` but over their own home, not
    /// attached, with the secure-state key beside that home.
    package init(folder: URL, configuration: HostConfiguration) {
        self.init(folder: folder) { home, _ in
            var fresh = configuration
            fresh.home = home
            fresh.attachesToHome = false
            fresh.secureKeyFile = nil
            return try EnvScriptHost(configuration: fresh)
        }
    }

    /// The scenario files, as paths relative to ``folder``, sorted.
    ///
    /// - Throws: ``ControlError`` `failed` naming the folder when it cannot be read.
    package func files() throws -> [String] {
        let root = folder.standardizedFileURL.resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else {
            throw ControlError(.failed, "the scenario folder \(folder.path) cannot be read")
        }
        var found: [String] = []
        for case let url as URL in walker where url.pathExtension == "lua" {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            // Byte by byte: String comparison would take a canonically equivalent folder for the root.
            guard path.utf8.starts(with: (root.path + "/").utf8) else { continue }
            found.append(String(decoding: path.utf8.dropFirst(root.path.utf8.count + 1), as: UTF8.self))
        }
        if found.isEmpty, !FileManager.default.fileExists(atPath: root.path) {
            throw ControlError(.failed, "the scenario folder \(folder.path) does not exist")
        }
        return found.sorted()
    }
}
