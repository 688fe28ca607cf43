import Locking
import LuaBridge
import Tweaks

/// What the host keeps for a script, by place ("an override of feature.variable", "state key"): a value
/// a host function kept is charged to the script's memory limit with the Lua heap
/// (``LuaState/keep(_:insteadOf:by:)``), and a value replaced or let go gives its charge back.
///
/// A kept value costs the host several times its size (the store's copy, its encoded file, the copy
/// written), so the charge is what the script handed over, the least the host holds for it: with it,
/// what a script makes the host hold grows with its limit, not with how often it calls.
/// (`@unchecked Sendable`: the state is only used under the host's lock, or by the reload that owns it.)
final class KeptValueLedger: @unchecked Sendable {
    /// The state charged (unowned: the state holds its modules, and they hold this).
    private unowned let lua: LuaState
    private let charges = Locked<[String: Int]>([:])

    init(lua: LuaState) {
        self.lua = lua
    }

    /// Charges `bytes` kept at `place` (replacing what was kept there) before `body` keeps the value;
    /// gives the charge back if `body` throws.
    func keep<Result>(_ bytes: Int, at place: String, by function: String, _ body: () throws -> Result) throws -> Result {
        let previous = charges.withLock { $0[place] ?? 0 }
        try lua.keep(bytes, insteadOf: previous, by: function)
        do {
            let result = try body()
            charges.withLock { $0[place] = bytes }
            return result
        } catch {
            try? lua.keep(previous, insteadOf: bytes, by: function)
            throw error
        }
    }

    /// Gives back the charge of what was kept at `place`, once `body` has let it go.
    func release<Result>(_ place: String, by function: String, _ body: () throws -> Result) throws -> Result {
        let result = try body()
        if let previous = charges.withLock({ $0.removeValue(forKey: place) }) {
            try lua.keep(0, insteadOf: previous, by: function)
        }
        return result
    }

    /// Gives back the charges of every place whose name starts with `prefix` (a whole store reset).
    func releaseAll(startingWith prefix: String, by function: String) throws {
        let released = charges.withLock { charges -> Int in
            let places = charges.keys.filter { $0.hasPrefix(prefix) }
            return places.reduce(0) { total, place in total + (charges.removeValue(forKey: place) ?? 0) }
        }
        if released > 0 { try lua.keep(0, insteadOf: released, by: function) }
    }

    /// About the bytes the names a value is kept under take in the host (a feature and a variable, a
    /// state key): with them, a script cannot park data in the names of values it keeps.
    static func size(ofNames names: String?...) -> Int {
        names.reduce(0) { $0 + 16 + ($1?.utf8.count ?? 0) }
    }

    /// About the bytes a context kept by a provider takes in the host, as ``size(of:)-(JSONValue)``.
    static func size(of context: TweakContext) -> Int {
        context.attributes.reduce(Self.size(ofNames: context.targetingKey)) { $0 + 16 + $1.key.utf8.count + size(of: $1.value) }
    }

    /// What the host keeps for a function or a hook a script registers (its reference, the closure
    /// around it, the observation): charged so that 300,000 `tweak.on_change` handlers are refused like
    /// as many values.
    static let registrationSize = 1 << 10

    /// About the bytes a value takes in the host: its text and a word per scalar, key and element.
    static func size(of value: JSONValue) -> Int {
        switch value {
        case .null, .bool, .int, .double: return 16
        case .string(let text): return 16 + text.utf8.count
        case .array(let elements): return elements.reduce(16) { $0 + size(of: $1) }
        case .object(let fields): return fields.reduce(16) { $0 + 16 + $1.key.utf8.count + size(of: $1.value) }
        }
    }
}
