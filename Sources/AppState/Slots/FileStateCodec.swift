import Foundation
import JSONValues

/// How a file-backed state turns its value into the bytes of its file and back: plain JSON for file
/// state, sealed JSON for secure state.
struct FileStateCodec<Value: Codable & Sendable>: Sendable {
    /// The mode of the files written.
    let permissions: mode_t
    let encode: @Sendable (_ value: Value, _ stateKey: String) throws -> Data
    let decode: @Sendable (_ data: Data, _ stateKey: String, _ path: String) throws -> Value

    /// The value as JSON, exactly: a number stays a number and a string a string, and a `JSONValue`'s
    /// double stays a double (`JSONValue.keepsNumberKinds`), so nothing is guessed when reading it back.
    static var json: FileStateCodec {
        FileStateCodec(permissions: 0o600, encode: encodeJSON, decode: decodeJSON)
    }

    /// The value as JSON, sealed with AES-GCM under the key from `keys`; files are private to the user.
    static func sealed(keys: SecureKeyStore) -> FileStateCodec {
        FileStateCodec(
            permissions: 0o600,
            encode: { value, stateKey in
                let key = try keys.key(forState: stateKey)
                return try SealedValue.seal(encodeJSON(value, stateKey: stateKey), stateKey: stateKey, with: key)
            },
            decode: { data, stateKey, path in
                let key = try keys.key(forState: stateKey)
                let plaintext = try SealedValue.open(data, stateKey: stateKey, path: path, with: key)
                return try decodeJSON(plaintext, stateKey: stateKey, path: path)
            })
    }

    private static func encodeJSON(_ value: Value, stateKey: String) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.userInfo[JSONValue.keepsNumberKinds] = true
        do {
            return try encoder.encode(value)
        } catch {
            throw AppStateError.encodingFailed(key: stateKey, reason: "\(error)")
        }
    }

    private static func decodeJSON(_ data: Data, stateKey: String, path: String) throws -> Value {
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[JSONValue.keepsNumberKinds] = true
            return try decoder.decode(Value.self, from: data)
        } catch {
            throw AppStateError.decodingFailed(key: stateKey, path: path, reason: "\(error)")
        }
    }
}
