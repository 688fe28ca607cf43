package import JSONValues
package import AppState
import Foundation
import Tweaks

extension Application {
    /// Sets the state under `key` to a value from a script (`state.set`, the control API's `PUT
    /// /v1/state/{key}`): state declared in Lua holds the script value as it is; state declared from
    /// Swift takes the value decoded into its declared type when that type is `Decodable` — a table
    /// into a `Codable` struct, an integer into a `Double` (see `JSONValue.decoded(as:)`).
    ///
    /// - Throws: `AppStateError/Code/unknownKey`, and `AppStateError/Code/typeMismatch`
    ///   when the state holds a type the value cannot be decoded into (the reason names the field).
    package func setScriptValue(_ value: JSONValue, forKey key: String) throws {
        do {
            try setValue(value, forKey: key)
        } catch let error as AppStateError {
            guard case .typeMismatch(let mismatchKey, let declared, let requested) = error.reason else { throw error }
            let decoded: (any Sendable)?
            do {
                decoded = try valueType(ofKey: key).flatMap { try value.decoded(as: $0) }
            } catch let error as DecodingError {
                let field = error.fieldPath.isEmpty ? "" : "\(error.fieldPath): "
                throw AppStateError.typeMismatch(
                    key: mismatchKey, declared: declared, requested: "the value given (\(field)\(error.reasonInWords))")
            }
            guard let sendable = decoded else {
                throw AppStateError.typeMismatch(key: mismatchKey, declared: declared, requested: requested)
            }
            try setValue(sendable, forKey: key)
        }
    }
}
