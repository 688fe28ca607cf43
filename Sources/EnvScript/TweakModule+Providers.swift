import Foundation
import Logging
import LuaBridge
import Preferences
import Tweaks

extension TweakModule {
    /// `tweak.stack` and the providers a script puts in it: `overrides`, `json`, `flagd`, `ephemeral` and `provider` (a Lua provider).
    static func registerProviderFunctions(on module: inout LuaModule, host: EnvScriptHost, generation: ScriptGeneration) {
        // The module lives in the generation's state: holding the generation would keep both alive.
        unowned let generation = generation
        module.function("stack") { [unowned generation] call in
            let list = try call.table(1)
            var providers: [any TweakProvider] = []
            for (index, entry) in list.array.enumerated() {
                guard case .object(let object) = entry, let handle = object.object as? TweakProviderHandle else {
                    throw call.argumentError(1, "entry \(index + 1) is a \(entry.typeName), not a provider made by tweak.overrides, tweak.json, tweak.flagd, tweak.ephemeral, tweak.remote, tweak.ofrep or tweak.provider")
                }
                providers.append(handle.provider)
            }
            if !list.fields.isEmpty { throw call.argumentError(1, "expected an array of providers, highest priority first") }
            let names = providers.map(\.name)
            if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
                throw call.argumentError(1, "two providers are named '\(duplicate)'; give one a name of its own")
            }
            try generation.set { $0.stack = providers }
            return 0
        }

        module.function("overrides") { [unowned host] call in
            let name = try call.argument(1, as: String?.self) ?? "overrides"
            call.push(TweakProviderHandle(OverridesTweakProvider(store: host.preferences, name: name)).luaValue)
            return 1
        }

        module.function("json") { [unowned host] call in
            let path = try call.argument(1, as: String.self)
            let name = try call.argument(2, as: String?.self)
            let file = try host.permissionGate.check(.read, path, by: "tweak.json")
            warnIfNotTrusted(file, by: "tweak.json", host: host)
            let provider = try LocalJSONTweakProvider(fileURL: file, name: name)
            call.push(TweakProviderHandle(provider).luaValue)
            return 1
        }

        // tweak.flagd(path[, name | {name=, invalid_rules='refuse_file'|'fail_evaluation'}])
        module.function("flagd") { [unowned host] call in
            let path = try call.argument(1, as: String.self)
            var name: String?
            var invalidRules = FlagdTweakProvider.InvalidRules.failEvaluation
            if call.stack.type(at: 2) == .table {
                let options = try OptionTable(call, 2, accepted: ["name", "invalid_rules"])
                name = try options.string("name")
                switch try options.string("invalid_rules") {
                case nil, "fail_evaluation": break
                case "refuse_file": invalidRules = .refuseFile
                case let other?:
                    throw options.problem("invalid_rules", "must be 'fail_evaluation' (load the file as flagd does, the default; a flag whose rule cannot be evaluated answers PARSE_ERROR) or 'refuse_file' (refuse a file with such a rule), not '\(other)'")
                }
            } else {
                name = try call.argument(2, as: String?.self)
            }
            let gate = host.permissionGate
            let file = try gate.check(.read, path, by: "tweak.flagd")
            warnIfNotTrusted(file, by: "tweak.flagd", host: host)
            // Every re-read of the watched file is checked as the first read was: a file replaced by a
            // link to one outside the roots is refused, and the flags read before stay.
            let provider = try FlagdTweakProvider(
                fileURL: file, name: name, invalidRules: invalidRules,
                readCheck: { try gate.check(.read, $0.path, by: "tweak.flagd") })
            // As flagd logs them: the file loads, and each rule that cannot be evaluated is named.
            for warning in provider.loadWarnings { host.logger.warning("tweak.flagd: \(warning)") }
            call.push(TweakProviderHandle(provider).luaValue)
            return 1
        }

        module.function("ephemeral") { call in
            let table = try call.optionalTable(1) ?? LuaTable()
            let name = try call.argument(2, as: String?.self) ?? "ephemeral"
            var values: [String: [String: JSONValue]] = [:]
            for (featureKey, variables) in table.fields {
                guard let feature = featureKey.stringValue, case .table(let variableTable) = variables else {
                    throw call.argumentError(1, "expected {feature = {variable = value}}, found a \(featureKey.typeName) key with a \(variables.typeName)")
                }
                for (variableKey, value) in variableTable.fields {
                    guard let variable = variableKey.stringValue else {
                        throw call.argumentError(1, "expected {feature = {variable = value}}, found a \(variableKey.typeName) key in \(feature)")
                    }
                    do {
                        values[feature, default: [:]][variable] = try JSONValue(flagValue: value)
                    } catch {
                        throw call.argumentError(1, "\(feature).\(variable): \(error)")
                    }
                }
            }
            call.push(TweakProviderHandle(EphemeralTweakProvider(name: name, values: values)).luaValue)
            return 1
        }

        module.function("provider") { [unowned host] call in
            let options = try call.table(1)
            guard let name = options["name"].stringValue, !name.isEmpty else {
                throw call.argumentError(1, "field 'name' must be a non-empty string")
            }
            guard case .function(let get) = options["get"] else {
                throw call.argumentError(1, "field 'get' must be a function(feature, variable[, ctx])")
            }
            var list: LuaCallback?
            if case .function(let lister) = options["list"] { list = LuaCallback(lister, lock: host.lock) }
            var decryptor: TweakDecryptor?
            switch options["decryptor"] {
            case .nil: break
            case .function(let decrypt): decryptor = LuaTweakProvider.decryptor(LuaCallback(decrypt, lock: host.lock))
            case let other: throw call.argumentError(1, "field 'decryptor' must be a function(tweak), not a \(other.typeName)")
            }
            let readsContext = get.parameters.map { $0.count >= 3 || $0.isVariadic } ?? false
            let provider = LuaTweakProvider.make(
                name: name, get: LuaCallback(get, lock: host.lock), list: list, decryptor: decryptor, readsContext: readsContext)
            call.push(TweakProviderHandle(provider).luaValue)
            return 1
        }
    }

    /// Warns when the flag file at `file` is not trusted as a script would be (``FileTrust``: another
    /// user's, or one anybody may change): its values decide what the application does.
    private static func warnIfNotTrusted(_ file: URL, by function: String, host: EnvScriptHost) {
        var info = stat()
        guard stat(file.path, &info) == 0, let problem = FileTrust.problem(info, groupMayWrite: true) else { return }
        host.logger.warning("\(function): \(file.path) is read although \(problem); check it, then change that (chown, chmod o-w)")
    }
}
