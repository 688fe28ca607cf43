import JSONValues
import AppState
import EnvScriptOperations

/// A piece of declared state: `{"key", "kind", "value"}`, or `{"key", "kind", "error"}` when its value
/// cannot be read (a secure value under another key, say). Values are `JSONValue`s as the `state`
/// module stores them: a float with an integral value is written `{"$float": "2.0"}`.
struct StateEntryPayload: Encodable, Sendable {
    let key: String
    let kind: String
    let value: JSONValue?
    let error: String?

    /// The state under `key`; an unreadable value becomes ``error`` when `tolerant`, else is thrown.
    init(key: String, in application: Application, tolerant: Bool = false) throws {
        guard let kind = application.kind(ofKey: key) else { throw AppStateError.unknownKey(key) }
        self.key = key
        self.kind = kind.rawValue
        do {
            value = try JSONValue(swift: application.value(forKey: key))
            error = nil
        } catch where tolerant {
            value = nil
            self.error = ControlError(describing: error).message
        }
    }

    /// A key whose value could not be read, and why.
    init(key: String, kind: StateKind, error: String) {
        self.key = key
        self.kind = kind.rawValue
        value = nil
        self.error = error
    }

    private enum CodingKeys: String, CodingKey { case key, kind, value, error }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(kind, forKey: .kind)
        if let error {
            try container.encode(error, forKey: .error)
        } else {
            try container.encode(KindKeepingJSONValue(value ?? .null), forKey: .value) // a nil state value is `null`, not absent
        }
    }
}

/// `{"state": [...]}`: every declared key, in the order of declaration.
struct StateListPayload: Encodable, Sendable {
    let state: [StateEntryPayload]

    init(_ application: Application) throws {
        state = try application.declaredKeys.map { try StateEntryPayload(key: $0, in: application, tolerant: true) }
    }
}
