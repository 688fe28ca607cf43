import LuaBridge
import Tweaks

/// The options table a Lua function takes, such as `tweak.remote{url = ..., refresh = 60}`, checked
/// the way `lauxlib` checks arguments: every name must be one the function accepts (a misspelt option
/// is an error, never silently ignored) and every value of the type the option needs. Errors are
/// argument errors of the call, naming the option.
struct OptionTable {
    private let table: LuaTable
    private let call: LuaCall
    private let position: Int32

    /// Reads argument `position` of `call` as options named in `accepted`.
    ///
    /// - Throws: an argument error for a missing table, a positional entry, or a name not accepted
    ///   (listing the accepted ones).
    init(_ call: LuaCall, _ position: Int32, accepted: [String]) throws {
        self.call = call
        self.position = position
        table = try call.table(position)
        let listed = accepted.sorted().joined(separator: ", ")
        if !table.array.isEmpty {
            throw call.argumentError(position, "expected options as name = value (\(listed)), found a list entry")
        }
        for key in table.fields.keys {
            guard let name = key.stringValue else {
                throw call.argumentError(position, "option names are strings, found a \(key.typeName) key; accepted options: \(listed)")
            }
            if !accepted.contains(name) {
                throw call.argumentError(position, "unknown option '\(name)'; accepted options: \(listed)")
            }
        }
    }

    /// The string option `name`, or nil when it is not given.
    func string(_ name: String) throws -> String? {
        switch table[name] {
        case .nil: return nil
        case .string(let value): return value
        case let other: throw problem(name, "must be a string, not a \(other.typeName)")
        }
    }

    /// The number option `name` in seconds, above 0 and finite, or nil when it is not given.
    func seconds(_ name: String) throws -> Double? {
        let value = table[name]
        if value == .nil { return nil }
        guard let seconds = value.doubleValue else {
            throw problem(name, "must be a number of seconds, not a \(value.typeName)")
        }
        guard seconds > 0, seconds.isFinite else {
            throw problem(name, "must be a number of seconds above 0, not \(seconds)")
        }
        return seconds
    }

    /// The integer option `name`, at least 1, or nil when it is not given.
    func count(_ name: String, of unit: String) throws -> Int? {
        let value = table[name]
        if value == .nil { return nil }
        guard case .integer(let number) = value, number >= 1 else {
            throw problem(name, "must be a whole number of \(unit) above 0, not \(value.typeName == "number" || value.typeName == "integer" ? "\(value.doubleValue ?? 0)" : "a " + value.typeName)")
        }
        return number
    }

    /// The option `name` as a table of strings keyed by strings, or nil when it is not given.
    func stringMap(_ name: String) throws -> [String: String]? {
        let value = table[name]
        if value == .nil { return nil }
        guard case .table(let entries) = value else {
            throw problem(name, "must be a table of strings keyed by strings, not a \(value.typeName)")
        }
        if !entries.array.isEmpty { throw problem(name, "must be a table of strings keyed by strings, not a list") }
        var map: [String: String] = [:]
        for (key, entry) in entries.fields {
            guard let key = key.stringValue, let entry = entry.stringValue else {
                throw problem(name, "must be a table of strings keyed by strings; found a \(key.typeName) key with a \(entry.typeName)")
            }
            map[key] = entry
        }
        return map
    }

    /// The option `name` as an evaluation context — `{targetingKey = "user-1", country = "DE"}` — or
    /// nil when it is not given.
    func context(_ name: String) throws -> TweakContext? {
        let value = table[name]
        if value == .nil { return nil }
        guard case .table = value else {
            throw problem(name, "must be a context table such as {targetingKey = 'user-1', country = 'DE'}, not a \(value.typeName)")
        }
        do {
            switch try JSONValue(flagValue: value) {
            case .object(let object): return try TweakContext(jsonObject: object.mapValues(JSONValue.init))
            case .array(let items) where items.isEmpty: return .empty
            default: throw LuaScriptError("a context has named fields, not a list")
            }
        } catch {
            throw problem(name, "\(error)")
        }
    }

    /// The argument error for option `name`.
    func problem(_ name: String, _ text: String) -> LuaArgumentError {
        call.argumentError(position, "option '\(name)' \(text)")
    }
}
