import AppState

extension Application {
    /// Sets the state under `key` to a value from a script (`state.set`, the control API's `PUT
    /// /v1/state/{key}`): state declared in Lua holds the script value as it is; state declared from
    /// Swift with a plain type (`Bool`, `Int`, `Double`, `String`) takes the plain value, an integer
    /// widening to a `Double`.
    ///
    /// - Throws: ``AppStateError/unknownKey(_:)``, and ``AppStateError/typeMismatch(key:declared:requested:)``
    ///   when the state holds another type.
    func setScriptValue(_ value: ScriptValue, forKey key: String) throws {
        do {
            try setValue(value, forKey: key)
        } catch AppStateError.typeMismatch(let mismatchKey, let declared, let requested) {
            let plain: [any Sendable]
            switch value {
            case .bool(let flag): plain = [flag]
            case .int(let number): plain = [number, Double(number)]
            case .double(let number): plain = [number]
            case .string(let text): plain = [text]
            default: plain = []
            }
            for candidate in plain {
                do {
                    try setValue(candidate, forKey: key)
                    return
                } catch AppStateError.typeMismatch {
                    continue
                }
            }
            throw AppStateError.typeMismatch(key: mismatchKey, declared: declared, requested: requested)
        }
    }
}
