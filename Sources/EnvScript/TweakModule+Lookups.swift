import Foundation
import Logging
import LuaBridge
import Preferences
import Tweaks

extension TweakModule {
    /// Reading flags: `get`, `value`, `enabled`, `with_context`, `list` and `explain`.
    static func registerLookupFunctions(on module: inout LuaModule, host: EnvScriptHost) {
        let tweaks = host.tweaks
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
            let value: JSONValue
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
}
