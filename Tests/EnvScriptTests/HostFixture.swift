import EnvScript
import Foundation
import LuaBridge
import Tweaks

/// A host over a fresh temporary folder, removed when the fixture goes away.
final class HostFixture {
    let folder: URL
    let host: EnvScriptHost

    /// - Parameter attaches: whether the host attaches to its home (serving its control socket).
    /// - Parameter tweakKeys: the keys the host passes to `tweak.cipher`.
    /// - Parameter configure: changes made to the configuration before the host opens.
    init(
        appID: String = "tests", attaches: Bool = true, tweakKeys: TweakKeySource? = nil,
        configure: (inout HostConfiguration) -> Void = { _ in }
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = HostConfiguration(
            home: folder.appendingPathComponent("home"), appID: appID,
            lua: LuaOptions(scriptRoots: [folder.path]), attachesToHome: attaches)
        configuration.tweakKeys = tweakKeys
        configure(&configuration)
        host = try EnvScriptHost(configuration: configuration)
    }

    deinit {
        host.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes a file in the fixture's folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Runs Lua source in the host.
    @discardableResult
    func run(_ source: String) throws -> [LuaValue] {
        try host.execute(source, name: "test")
    }
}
