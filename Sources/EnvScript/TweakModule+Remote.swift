import Foundation
import JSONValues
import LuaBridge
import Tweaks
#if RemoteFlags
import RemoteTweaks
#endif

/// `tweak.remote` and `tweak.ofrep`: flags fetched over HTTP, with the `RemoteFlags` trait; without it
/// they are there and say so, so that a script written for a full build fails with its reason.
extension TweakModule {
    static func registerRemoteFunctions(
        on module: inout LuaModule, host: EnvScriptHost, generation: ScriptGeneration, kept: KeptValueLedger
    ) {
        // The module lives in the generation's state: holding the generation would keep both alive.
        unowned let generation = generation
        #if RemoteFlags
        module.function("remote") { [unowned host, unowned generation] call in
            let options = try OptionTable(call, 1, accepted: ["url", "name", "refresh", "timeout", "headers", "max_body"])
            guard let text = try options.string("url") else { throw options.problem("url", "is required: the http or https URL of the tweaks") }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
                throw options.problem("url", "must be an http or https URL, not '\(text)'")
            }
            let gate = host.permissionGate
            try gate.checkNetwork(url, by: "tweak.remote")
            let name = try options.string("name") ?? "remote"
            if name.isEmpty { throw options.problem("name", "must not be empty") }
            let configuration = try remoteConfiguration(options, url: url, name: name, host: host, gate: gate)
            let provider = try generation.remoteProvider(declaredAs: declaration("remote", configuration, name: name)) {
                // Answers from the kept copy at once; the network is left to a background task, off the
                // host's lock and outside this call's budget.
                let provider = RemoteTweakProvider(name: name, configuration: configuration)
                if let error = provider.status.keptCopyError {
                    host.logger.warning("remote tweaks '\(name)': the kept copy is unusable: \(error)")
                }
                return started(provider, by: host)
            }
            call.push(TweakProviderHandle(provider).luaValue)
            return 1
        }
        module.function("ofrep") { [unowned host, unowned generation] call in
            let options = try OptionTable(call, 1, accepted: ["url", "name", "context", "refresh", "timeout", "headers", "max_body"])
            guard let text = try options.string("url") else {
                throw options.problem("url", "is required: the http or https base URL of the OFREP service")
            }
            guard let base = URL(string: text), let scheme = base.scheme?.lowercased(), ["http", "https"].contains(scheme), base.host != nil else {
                throw options.problem("url", "must be an http or https URL, not '\(text)'")
            }
            let gate = host.permissionGate
            try gate.checkNetwork(OFREPTweakProvider.bulkURL(base: base), by: "tweak.ofrep")
            let name = try options.string("name") ?? "ofrep"
            if name.isEmpty { throw options.problem("name", "must not be empty") }
            let context = try options.context("context") ?? .empty
            let configuration = try remoteConfiguration(options, url: base, name: name, host: host, gate: gate)
            // Answers from the kept copy at once; the bulk evaluation is left to the background. Its
            // context is kept for every evaluation: charged like a kept value, each provider on its own
            // (another of the same name does not replace the charge while the first may live on).
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let attributes = (try? encoder.encode(JSONValue.object(context.attributes))).map { String(decoding: $0, as: UTF8.self) }
            let contextText = "\(context.targetingKey ?? "") \(attributes ?? "")"
            let provider = try generation.remoteProvider(
                declaredAs: declaration("ofrep", configuration, name: name) + " context \(contextText)"
            ) {
                let provider = try kept.keep(
                    KeptValueLedger.size(of: context) + KeptValueLedger.size(ofNames: name), at: "ofrep \(UUID().uuidString)",
                    by: "tweak.ofrep"
                ) { OFREPTweakProvider(name: name, configuration: configuration, context: context) }
                if let error = provider.status.keptCopyError {
                    host.logger.warning("OFREP tweaks '\(name)': the kept copy is unusable: \(error)")
                }
                return started(provider, by: host)
            }
            call.push(TweakProviderHandle(provider).luaValue)
            return 1
        }
        #else
        for name in ["remote", "ofrep"] {
            module.function(name) { call in
                throw call.argumentError(
                    1, "tweak.\(name) is not in this build: the application was built without EnvScript's RemoteFlags trait (flags over HTTP)")
            }
        }
        #endif
    }

    #if RemoteFlags
    /// How a generation starts `provider` (the host adopts it: it fetches in the background from then on)
    /// and stops it.
    private static func started(_ provider: some RemoteRefreshingProvider, by host: EnvScriptHost) -> ScriptGeneration.RemoteProvider {
        ScriptGeneration.RemoteProvider(
            provider: provider, start: { [weak host] in host?.remoteTweaks.adopt(provider) }, close: { provider.close() })
    }

    /// A remote provider's declaration in words: the same words mean the same provider, which a reload
    /// keeps rather than fetch again.
    private static func declaration(_ kind: String, _ configuration: RemoteTweakProvider.Configuration, name: String) -> String {
        let headers = configuration.headers.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\u{1}")
        return [
            kind, name, configuration.url.absoluteString, "\(configuration.refreshInterval ?? -1)", "\(configuration.timeout)",
            headers, "\(configuration.maximumBodySize)",
        ].map { "\($0.utf8.count):\($0)" }.joined(separator: " ")
    }

    /// What `tweak.remote` and `tweak.ofrep` share: the refresh, timeout and headers given, the kept
    /// copy in the home, redirects only where the permissions reach, and answers no larger than
    /// `max_body` bytes (16 MiB unless given) nor than the script's memory limit, so that a script
    /// cannot make the host take more for it than it may take itself.
    private static func remoteConfiguration(
        _ options: OptionTable, url: URL, name: String, host: EnvScriptHost, gate: PermissionGate
    ) throws -> RemoteTweakProvider.Configuration {
        var configuration = RemoteTweakProvider.Configuration(
            url: url, refreshInterval: try options.seconds("refresh"),
            keptCopy: RemoteTweakProvider.keptCopyURL(home: host.configuration.home, name: name),
            headers: try options.stringMap("headers") ?? [:])
        configuration.coordinator = host.storeCoordinator
        if let seconds = try options.seconds("timeout") { configuration.timeout = seconds }
        configuration.allowsRedirect = { gate.allowsNetwork($0) }
        let given = try options.count("max_body", of: "bytes") ?? RemoteTweakProvider.Configuration.defaultMaximumBodySize
        configuration.maximumBodySize = min(given, host.lua.memoryLimit ?? .max)
        return configuration
    }
    #endif
}
