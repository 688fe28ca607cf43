import Foundation
import Logging
import LuaBridge

/// The EnvScript runtime: one sandboxed Lua state over an application's home.
///
/// A host is used from one thread at a time, like the ``LuaState`` it owns. Closing it (or
/// dropping it) closes the state, which releases every Lua function the host keeps.
public final class EnvScriptHost {
    /// How this host was set up.
    public let configuration: HostConfiguration
    /// The Lua state scripts run in.
    public let lua: LuaState

    private let logger = Logger(label: "envscript.host")

    /// Creates the home folder when missing and opens a Lua state with the configured limits.
    public init(configuration: HostConfiguration) throws {
        self.configuration = configuration
        try Self.prepareHome(configuration.home)
        lua = try LuaState(options: configuration.lua)
        logger.debug("host opened", metadata: ["home": "\(configuration.home.path)"])
    }

    /// Closes the Lua state now.
    public func close() { lua.close() }

    /// Runs the Lua file at `path` and returns its results.
    ///
    /// - Throws: ``HostError/scriptNotReadable(path:reason:)`` when the file cannot be read;
    ///   a ``LuaError`` of kind `syntax` when it does not compile, of another kind when it fails.
    @discardableResult
    public func runScript(atPath path: String) throws -> [LuaValue] {
        let chunk = try compileScript(atPath: path)
        logger.debug("running script", metadata: ["path": "\(path)"])
        return try chunk.call()
    }

    /// Compiles the Lua file at `path` without running it.
    @discardableResult
    public func compileScript(atPath path: String) throws -> LuaFunctionRef {
        try Self.checkReadable(path)
        return try lua.load(contentsOfFile: path)
    }

    public static func checkReadable(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw HostError.scriptNotReadable(path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw HostError.scriptNotReadable(path: path, reason: "it is a folder") }
        if !FileManager.default.isReadableFile(atPath: path) {
            throw HostError.scriptNotReadable(path: path, reason: "permission denied")
        }
    }

    static func prepareHome(_ home: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: home.path, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { throw HostError.homeUnusable(path: home.path, reason: "it is a file") }
            return
        }
        do {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        } catch {
            throw HostError.homeUnusable(path: home.path, reason: "\(error.localizedDescription)")
        }
    }
}
