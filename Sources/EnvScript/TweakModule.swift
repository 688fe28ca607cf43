import Foundation
import Logging
import LuaBridge
import Preferences
import Tweaks

/// The Lua module `tweak`: the provider stack, lookups, overrides, the decryptor and change handlers.
///
/// `get` returns nil for a missing tweak; `value` returns its default only for a missing tweak (a value
/// of another type is an error, not a silent fallback); `enabled` is false for a missing flag. Provider
/// failures and decryption errors are raised, never taken for "missing".
enum TweakModule {
    static func make(host: EnvScriptHost) -> LuaModule {
        var module = LuaModule("tweak")
        let tweaks = host.tweaks
        let kept = KeptValueLedger(host: host)
        /// Where a value set by the script is kept: a provider's feature and variable, each part preceded by
        /// its length, so that no two places are written alike (`"a b", "c"` and `"a", "b c"` are two).
        func place(_ feature: String, _ variable: String, _ provider: String?) -> String {
            ([provider ?? "", feature, variable].map { "\($0.utf8.count):\($0)" }).reduce("tweak ", +)
        }

        module.function("stack") { [unowned host] call in
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
            host.tweaks.setProviders(providers)
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
            var values: [String: [String: TweakValue]] = [:]
            for (featureKey, variables) in table.fields {
                guard let feature = featureKey.stringValue, case .table(let variableTable) = variables else {
                    throw call.argumentError(1, "expected {feature = {variable = value}}, found a \(featureKey.typeName) key with a \(variables.typeName)")
                }
                for (variableKey, value) in variableTable.fields {
                    guard let variable = variableKey.stringValue else {
                        throw call.argumentError(1, "expected {feature = {variable = value}}, found a \(variableKey.typeName) key in \(feature)")
                    }
                    do {
                        values[feature, default: [:]][variable] = try TweakValue(lua: value)
                    } catch {
                        throw call.argumentError(1, "\(feature).\(variable): \(error)")
                    }
                }
            }
            call.push(TweakProviderHandle(EphemeralTweakProvider(name: name, values: values)).luaValue)
            return 1
        }
        registerRemoteFunctions(on: &module, host: host, kept: kept)
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
        module.function("get") { call in
            let feature = try call.argument(1, as: String.self)
            let variable = try call.argument(2, as: String.self)
            let context = try TweakContext(argument: 3, of: call)
            let lookup: TweakLookup
            do {
                lookup = try tweaks.lookup(feature: feature, variable: variable, context: context)
            } catch let error as TweakError where error.code == .notFound {
                call.push(LuaValue.nil)
                return 1
            } catch let error as TweakError where error.code == .defaulted {
                guard let answer = error.defaultAnswer, case .defaulted(_, let source) = error.reason else { throw error }
                call.push(LuaValue.nil)
                call.push(answer.luaTable(source: source))
                return 2
            }
            var info = lookup.tweak.luaTable
            if case .table(var table) = info {
                table["failures"] = .array(lookup.failures.map { .string($0.description) })
                info = .table(table)
            }
            call.push(lookup.value.luaValue)
            call.push(info)
            return 2
        }
        // The path of every flag read from Lua: the value alone (from the cache when it is on), the
        // default's type checked without reading it, scalars pushed as they are.
        module.function("value") { call in
            let feature = try call.argument(1, as: String.self)
            let variable = try call.argument(2, as: String.self)
            // Read only when given: the cached path takes no context.
            let contextType = call.stack.type(at: 4)
            let context = contextType == .none || contextType == .nil ? TweakContext.empty : try TweakContext(argument: 4, of: call)
            let value: TweakValue
            do {
                value = try tweaks.resolvedValue(feature: feature, variable: variable, context: context)
            } catch let error as TweakError where error.code == .notFound || error.code == .defaulted {
                call.push(try call.value(3))
                return 1
            }
            let fallbackType = call.stack.type(at: 3)
            if fallbackType != .none && fallbackType != .nil && fallbackType != value.luaType {
                // A secret's value stays out of the message.
                let sealed = (try? tweaks.lookup(feature: feature, variable: variable, context: context).tweak.isSealed) ?? true
                let shown = sealed ? "a sealed \(value.luaType.name)" : "a \(value.luaType.name) (\(value))"
                throw LuaScriptError("tweak \(feature).\(variable) is \(shown), but the default given is a \(fallbackType.name)")
            }
            try value.push(onto: call.stack)
            return 1
        }
        module.function("enabled") { call in
            let feature = try call.argument(1, as: String.self)
            let context = try TweakContext(argument: 2, of: call)
            do {
                call.push(try tweaks.enabled(feature, context: context))
            } catch let error as TweakError where error.code == .notFound || error.code == .defaulted {
                call.push(false)
            }
            return 1
        }
        // Runs fn with the context merged over the one in force; lookups inside it (from Lua or from
        // Swift code fn calls) evaluate in it.
        module.function("with_context") { call in
            let context = try TweakContext(argument: 1, of: call)
            let body = try call.function(2)
            defer { body.release() }
            let results = try TweakContext.withContext(context) { try body.call([]) }
            for result in results { call.push(result) }
            return Int32(results.count)
        }
        module.function("set") { call in
            let feature = try call.argument(1, as: String.self)
            let variable = try call.argument(2, as: String.self)
            let value = try TweakValue(argument: 3, of: call)
            let provider = try call.argument(4, as: String?.self)
            let bytes = KeptValueLedger.size(of: value) + KeptValueLedger.size(ofNames: feature, variable, provider)
            try kept.keep(bytes, at: place(feature, variable, provider), by: "tweak.set") {
                try tweaks.set(value, feature: feature, variable: variable, provider: provider)
            }
            return 0
        }
        module.function("delete") { call in
            let feature = try call.argument(1, as: String.self)
            let variable = try call.argument(2, as: String.self)
            let provider = try call.argument(3, as: String?.self)
            try kept.release(place(feature, variable, provider), by: "tweak.delete") {
                try tweaks.delete(feature: feature, variable: variable, provider: provider)
            }
            return 0
        }
        module.function("list") { call in
            let list = tweaks.list()
            call.push(LuaValue.array(list.tweaks.map(\.luaTable)))
            call.push(LuaValue.array(list.failures.map { .string($0.description) }))
            return 2
        }
        module.function("explain") { call in
            let feature = try call.argument(1, as: String.self)
            let variable = try call.argument(2, as: String.self)
            call.push(explanationTable(tweaks.explain(feature: feature, variable: variable)))
            return 1
        }
        module.function("list_overrides") { call in
            call.push(LuaValue.array(try tweaks.listOverrides().map(\.luaTable)))
            return 1
        }
        module.function("delete_all_overrides") { call in
            let removed = try tweaks.deleteAllOverrides().removed
            try kept.releaseAll(startingWith: "tweak ", by: "tweak.delete_all_overrides")
            call.push(LuaValue.integer(removed))
            return 1
        }
        module.function("decryptor") { [unowned host] call in
            if try call.value(1) == .nil {
                tweaks.decryptor = nil
                return 0
            }
            tweaks.decryptor = LuaTweakProvider.decryptor(LuaCallback(try call.function(1), lock: host.lock))
            return 0
        }
        module.function("cipher") { [unowned host] call in
            let first = try call.value(1)
            if first == .boolean(false) {
                tweaks.cipher = nil
                return 0
            }
            var keyFile: URL?
            if first != .nil {
                let options = try OptionTable(call, 1, accepted: ["key_file"])
                if let path = try options.string("key_file") {
                    let url = try host.permissionGate.check(.read, path, by: "tweak.cipher")
                    if url.isInside(PermissionGate.resolved(host.configuration.home.path)) {
                        throw options.problem("key_file", "names \(path), inside the home \(host.configuration.home.path), where a switch would move it with the containers' data; keep the key file outside the home")
                    }
                    keyFile = url
                }
            }
            let cipher = try cipher(keyFile: keyFile, hostKeys: host.configuration.tweakKeys)
            tweaks.cipher = cipher
            call.push(TweakCipherHandle(cipher).luaValue)
            return 1
        }
        module.function("cache") { call in
            tweaks.cacheEnabled = try call.argument(1, as: Bool.self)
            return 0
        }
        module.function("reset_cache") { _ in
            tweaks.resetCache()
            return 0
        }
        module.function("on_change") { [unowned host] call in
            let handler = LuaCallback(try call.function(1), lock: host.lock)
            let logger = host.logger
            let observation = tweaks.observe { change in
                let tweak: LuaValue = change.tweak?.luaTable
                    ?? .dictionary(["feature": change.key.map { .string($0.feature) } ?? .nil,
                                    "variable": change.key.map { .string($0.variable) } ?? .nil])
                do {
                    _ = try handler.call([tweak])
                } catch {
                    logger.error("a tweak.on_change handler failed: \(error)")
                }
            }
            call.push(try host.keep(observation, by: "tweak.on_change").luaValue)
            return 1
        }
        return module
    }

    /// The cipher of `tweak.cipher`: the host's keys, then those of the key file (whose last key seals).
    private static func cipher(keyFile: URL?, hostKeys: TweakKeySource?) throws -> TweakCipher {
        do {
            var ring = try hostKeys?.keyring() ?? TweakCipherKeyring([])
            if let keyFile {
                ring = try ring.merged(with: try TweakCipherKeyring.load(file: keyFile), origin: keyFile.path)
            }
            if ring.keys.isEmpty {
                throw LuaScriptError("tweak.cipher: no keys; name a key file (tweak.cipher{key_file = 'keys/app.tweak-keys'}, made by envscript tweak keygen) or have the host pass its keys (HostConfiguration.tweakKeys; envscript reads $ENVSCRIPT_TWEAK_KEYS)")
            }
            return TweakCipher(keyring: ring)
        } catch let error as TweakCipherError {
            throw LuaScriptError("tweak.cipher: \(error)")
        }
    }

    /// The Lua table of an explanation: `{feature, variable, answer = tweak or nil, steps = {{provider,
    /// outcome, value, sealed, error, opened_by}, ...}}`, the fields of `TweakExplanationPayload`.
    private static func explanationTable(_ explanation: TweakExplanation) -> LuaValue {
        let payload = TweakExplanationPayload(explanation)
        var table = LuaTable()
        table["feature"] = .string(payload.feature)
        table["variable"] = .string(payload.variable)
        if let answer = explanation.answer { table["answer"] = answer.luaTable }
        table["steps"] = .array(payload.steps.map { step in
            var entry = LuaTable()
            entry["provider"] = .string(step.provider)
            entry["outcome"] = .string(step.outcome)
            entry["sealed"] = .boolean(step.sealed)
            if let value = step.value { entry["value"] = value.luaValue }
            if let error = step.error { entry["error"] = .string(error) }
            if let openedBy = step.openedBy { entry["opened_by"] = .string(openedBy) }
            if let keyID = step.keyID { entry["key_id"] = .string(keyID) }
            return .table(entry)
        })
        return .table(table)
    }

    /// Warns when the flag file at `file` is not trusted as a script would be (``FileTrust``: another
    /// user's, or one anybody may change): its values decide what the application does.
    private static func warnIfNotTrusted(_ file: URL, by function: String, host: EnvScriptHost) {
        var info = stat()
        guard stat(file.path, &info) == 0, let problem = FileTrust.problem(info, groupMayWrite: true) else { return }
        host.logger.warning("\(function): \(file.path) is read although \(problem); check it, then change that (chown, chmod o-w)")
    }
}
