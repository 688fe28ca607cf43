import AppState
import EnvScript
import Foundation
import LuaBridge
import TestSupport

/// A real host over a fresh home, not made current for the whole process (tests run in parallel):
/// each test binds its application with `Application.withCurrent`.
final class UsageHost {
    let folder: TemporaryFolder
    let host: EnvScriptHost
    var application: Application { host.application }

    init(_ label: String = #function) throws {
        folder = try TemporaryFolder(label)
        var configuration = HostConfiguration(
            home: folder.url.appendingPathComponent("home"), appID: "com.example.usage",
            lua: LuaOptions(scriptRoots: [folder.url.path]), attachesToHome: false)
        configuration.makesApplicationCurrent = false
        host = try EnvScriptHost(configuration: configuration)
    }

    deinit {
        host.close()
        folder.remove()
    }
}
