import EnvScript
import Foundation
import LuaBridge
import Testing

/// What a refused path's message says when the host has no project folder: a symbolic link inside a
/// granted folder that leads out of it is named as such, not as a file outside a project there is not.
@Suite struct PermissionRefusalWordingTests {
    @Test func aLinkLeavingAGrantedFolderOfAHostWithoutProjectSaysSo() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        try #"{"checkout": {"max_items": 3}}"#.write(to: outside.appendingPathComponent("secret.json"), atomically: true, encoding: .utf8)
        let granted = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-granted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: granted, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: granted) }
        try FileManager.default.createSymbolicLink(
            atPath: granted.appendingPathComponent("link.json").path, withDestinationPath: outside.appendingPathComponent("secret.json").path)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-noproject-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = HostConfiguration(home: folder, appID: "tests", attachesToHome: false)
        configuration.permissions.readableFolders = [granted]
        let host = try EnvScriptHost(configuration: configuration)
        defer { host.close() }

        let path = granted.appendingPathComponent("link.json").path
        let message = try host.execute("return select(2, pcall(tweak.json, '\(path)'))", name: "test").first?.stringValue ?? ""
        #expect(message.contains("a symbolic link on its way leads outside the folders granted to it"), "\(message)")
        #expect(!message.contains("project"), "\(message)")
        #expect(!message.contains(outside.path), "where the link leads is not said: \(message)")
    }
}
