import Foundation
import Preferences

/// The preferences file reader (XML and binary property lists).
///
/// Invariants: whatever it reads, a preferences file written from the result reads back as the same
/// values; a refusal is a ``PreferencesError`` naming the file.
enum PropertyListFuzz {
    static func run(_ data: Data) {
        let values: [String: PreferenceValue]
        do {
            values = try PreferenceValue.dictionary(fromPropertyList: data, path: "fuzz.plist")
        } catch let error as PreferencesError {
            guard case .corruptFile(let path, _) = error.reason, path == "fuzz.plist" else {
                fuzzFailure("a refusal that does not name the file: \(error)")
            }
            return
        } catch {
            fuzzFailure("a refusal that is not a PreferencesError: \(error)")
        }
        let written: Data
        do {
            written = try PreferenceValue.propertyListData(from: values)
        } catch {
            fuzzFailure("values read from a property list cannot be written back: \(error)")
        }
        guard let reread = try? PreferenceValue.dictionary(fromPropertyList: written, path: "again.plist") else {
            fuzzFailure("a property list written from read values does not read back")
        }
        guard reread == values || String(describing: reread) == String(describing: values) else {
            fuzzFailure("values changed through a write and a read: \(values) became \(reread)")
        }
    }
}
