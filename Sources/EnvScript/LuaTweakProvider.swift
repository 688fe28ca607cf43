import LuaBridge
import Tweaks

/// `tweak.provider{name=, get=fn(feature, variable[, ctx]), list=fn(), decryptor=fn(tweak)}`: a provider
/// written in Lua, optionally with its own decryptor (which wins over the stack's), and with targeting
/// of its own when `get` takes the evaluation context as a third parameter.
///
/// `get` returns nil (the provider lacks the tweak), the value (a boolean, number, string, or a table for
/// a structured value), or a table with a `value` field `{value=, title=, description=, group=,
/// encrypted=, variant=, reason=}`; an error in it is reported as this provider's failure, not as a missing tweak.
enum LuaTweakProvider {
    /// A provider over `get`; with `readsContext` (a `get` that declares a third parameter, or `...`), the
    /// lookup's evaluation context is passed as that third argument and the provider's answers are
    /// never cached, since they may differ by it.
    static func make(
        name: String, get: LuaCallback, list: LuaCallback?, decryptor: TweakDecryptor? = nil, readsContext: Bool = false
    ) -> ClosureTweakProvider {
        var lister: ClosureTweakProvider.Lister?
        if let list {
            lister = { try listed(by: list, provider: name) }
        }
        guard readsContext else {
            return ClosureTweakProvider.withTweaks(name: name, decryptor: decryptor, list: lister) { feature, variable in
                try tweak(from: get.callFirst(.string(feature), .string(variable)), feature: feature, variable: variable, provider: name)
            }
        }
        return ClosureTweakProvider.withContextualTweaks(name: name, decryptor: decryptor, list: lister) { feature, variable, context in
            try tweak(
                from: get.callFirst(.string(feature), .string(variable), context.luaValue),
                feature: feature, variable: variable, provider: name)
        }
    }

    /// A decryptor written in Lua: `fn(tweak)` gets the tweak table and returns the plain value.
    static func decryptor(_ decrypt: LuaCallback) -> TweakDecryptor {
        { tweak in
            let answer = try decrypt.callFirst(tweak.luaTable)
            do {
                return try JSONValue(flagValue: answer)
            } catch {
                throw LuaScriptError("the decryptor's answer for \(tweak.feature).\(tweak.variable) is not a value: \(error)")
            }
        }
    }

    /// The tweaks the `list` function of a Lua provider returns.
    static func listed(by list: LuaCallback, provider: String) throws -> [Tweak] {
        let answer = try list.callFirst()
        guard case .table(let table) = answer else {
            throw LuaScriptError("the list function of tweak provider '\(provider)' must return an array of tweaks, not a \(answer.typeName)")
        }
        return try table.array.map { entry in
            guard let feature = entry["feature"].stringValue, let variable = entry["variable"].stringValue else {
                throw LuaScriptError("each tweak listed by provider '\(provider)' needs string fields 'feature' and 'variable'")
            }
            guard let tweak = try tweak(from: entry, feature: feature, variable: variable, provider: provider) else {
                throw LuaScriptError("tweak \(feature).\(variable) listed by provider '\(provider)' has no value")
            }
            return tweak
        }
    }

    /// The tweak an answer of a Lua provider stands for, or nil for `nil`: a value, or a table with a
    /// `value` field (and `title`, `description`, `group`, `encrypted`). A table without `value` is a
    /// structured value itself; an object that has a field named `value` is answered as `{value = ...}`.
    static func tweak(from answer: LuaValue, feature: String, variable: String, provider: String) throws -> Tweak? {
        if answer == .nil { return nil }
        guard case .table = answer, answer["value"] != .nil else {
            do {
                return Tweak(feature: feature, variable: variable, value: try JSONValue(flagValue: answer), source: provider)
            } catch {
                throw LuaScriptError("tweak provider '\(provider)' answered \(feature).\(variable) with something that is not a value: \(error)")
            }
        }
        let value: JSONValue
        do {
            value = try JSONValue(flagValue: answer["value"])
        } catch {
            throw LuaScriptError("tweak provider '\(provider)' answered \(feature).\(variable) with a table whose 'value' is not a value: \(error)")
        }
        return Tweak(
            feature: feature, variable: variable, value: value,
            title: answer["title"].stringValue, description: answer["description"].stringValue,
            group: answer["group"].stringValue, source: provider,
            isEncrypted: answer["encrypted"].boolValue ?? false, variant: answer["variant"].stringValue,
            reason: answer["reason"].stringValue.map(TweakReason.init(rawValue:)) ?? .static)
    }
}
