import AppState
import LuaBridge

/// A Lua value held as a dependency: tables of functions (services) included. Used only under the
/// host's lock, like every Lua value.
final class LuaDependency: @unchecked Sendable {
    let value: LuaValue
    init(_ value: LuaValue) { self.value = value }
}

/// The Lua module `dependency`: lazily made services, scoped per application or per container, with
/// overrides that hold while a function runs — on that thread only — and are undone after it, also on error.
///
/// `register(name, factory [, {scope = 'container'}])`, `get(name)`, `override(name, value, fn, ...)`
/// (returns what `fn` returns), `is_registered(name)`. A reload of the start-up scripts drops what their
/// factories made: the new scripts register their own.
enum DependencyModule {
    static func make(host: EnvScriptHost, generation: ScriptGeneration) -> LuaModule {
        // The module lives in the generation's state: holding the generation would keep both alive.
        unowned let generation = generation
        var module = LuaModule("dependency")
        let dependencies = host.application.dependencies

        module.function("register") { [unowned host, unowned generation] call in
            let name = try call.argument(1, as: String.self)
            let factory = LuaCallback(try call.function(2), lock: host.lock)
            let options = try call.optionalTable(3) ?? LuaTable()
            let scope: DependencyScope
            switch options["scope"] {
            case .nil, "application": scope = .application
            case "container": scope = .container
            case let other: throw call.argumentError(3, "scope must be 'application' or 'container', not \(other)")
            }
            // Its factory lives in this generation's state: registered while it is in force.
            _ = try generation.register(by: "dependency.register", key: "dependency \(name)") {
                dependencies.register(name, as: LuaDependency.self, scope: scope) {
                    LuaDependency(try factory.callFirst())
                }
                return { dependencies.unregister(name) }
            }
            return 0
        }
        module.function("get") { call in
            call.push(try luaValue(of: dependencies.get(try call.argument(1, as: String.self))))
            return 1
        }
        module.function("is_registered") { call in
            call.push(dependencies.isRegistered(try call.argument(1, as: String.self)))
            return 1
        }
        module.function("override") { call in
            let name = try call.argument(1, as: String.self)
            let replacement = try call.value(2)
            let body = try call.function(3)
            var arguments: [LuaValue] = []
            if call.argumentCount >= 4 {
                for position in 4...call.argumentCount { arguments.append(try call.value(position)) }
            }
            let results: [LuaValue]
            do {
                results = try dependencies.override(name, with: LuaDependency(replacement)) { try body.call(arguments) }
            } catch let error as AppStateError where error.code == .typeMismatch {
                // Registered from Swift with a plain type: override with the Swift value.
                results = try dependencies.override(name, with: try swiftValue(of: replacement)) { try body.call(arguments) }
            }
            return try call.results(results)
        }
        return module
    }

    /// A Lua value as a plain Swift value, to stand in for a dependency registered from Swift.
    static func swiftValue(of value: LuaValue) throws -> any Sendable {
        switch value {
        case .boolean(let flag): return flag
        case .integer(let number): return number
        case .number(let number): return number
        case .string(let text): return text
        default: return try JSONValue(lua: value)
        }
    }

    /// A dependency as Lua sees it: Lua values as they were, Swift values as plain data.
    static func luaValue(of dependency: any Sendable) throws -> LuaValue {
        if let lua = dependency as? LuaDependency { return lua.value }
        return try JSONValue(swift: dependency).luaValue
    }
}
