import AppState
import Foundation
import TestSupport

/// A live app home with containers swapped underneath it the way the container engine does it: the
/// home's `Library` folder is renamed into the stash of the container left, and the stash of the container
/// entered is renamed into the home, with ``Application/prepareForSwitch()`` before and
/// ``Application/containerDidSwitch(to:)`` after.
///
/// The secure key file lives beside the home, outside it, as in a real installation.
final class SimulatedContainers {
    let folder: TemporaryFolder
    let home: URL
    let stash: URL
    let keyFile: URL
    private(set) var active = "A"
    private var identities: [String: UUID] = [:]

    init(_ label: String = #function) throws {
        folder = try TemporaryFolder(label)
        home = folder.url.appendingPathComponent("home", isDirectory: true)
        stash = folder.url.appendingPathComponent("containers", isDirectory: true)
        keyFile = folder.url.appendingPathComponent("keys/secure.key")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: stash, withIntermediateDirectories: true)
    }

    /// The identity of container `name`, made on first use.
    func identity(of name: String) -> UUID {
        if let id = identities[name] { return id }
        let id = UUID()
        identities[name] = id
        return id
    }

    /// An application over the home, with the secure key file beside it, in container A.
    func makeApplication(dependencies: DependencyContainer = DependencyContainer()) -> Application {
        Application(
            home: home, appID: "com.example.app", secureKey: .keyFile(keyFile), dependencies: dependencies,
            containerID: identity(of: active))
    }

    /// Switches the home to container `name`, telling `application` (by name when `naming`).
    func switchTo(_ name: String, _ application: Application, naming: Bool = true) throws {
        try application.prepareForSwitch()
        let live = home.appendingPathComponent("Library", isDirectory: true)
        let left = stash.appendingPathComponent(active, isDirectory: true)
        let entered = stash.appendingPathComponent(name, isDirectory: true)
        let manager = FileManager.default
        if manager.fileExists(atPath: live.path) {
            try manager.createDirectory(at: left, withIntermediateDirectories: true)
            try manager.moveItem(at: live, to: left.appendingPathComponent("Library"))
        }
        if manager.fileExists(atPath: entered.appendingPathComponent("Library").path) {
            try manager.moveItem(at: entered.appendingPathComponent("Library"), to: live)
        }
        active = name
        try application.containerDidSwitch(to: naming ? identity(of: name) : nil)
    }

    func remove() {
        folder.remove()
    }
}
