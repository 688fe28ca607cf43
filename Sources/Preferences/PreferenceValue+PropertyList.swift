import JSONValues
package import Foundation

/// Conversion between ``PreferenceValue`` and property lists: read through `PropertyListSerialization`,
/// written through `PropertyListEncoder` (see ``PropertyListRepresentation``).
extension PreferenceValue {
    /// The top-level keys of a property-list file's bytes (XML or binary) and their values. `path` names
    /// the file in the error.
    ///
    /// - Throws: ``PreferencesError/Code/corruptFile`` when `data` is not a property list, its top
    ///   level is not a dictionary, or a key holds something a preference cannot be.
    package static func dictionary(fromPropertyList data: Data, path: String = "property list") throws -> [String: PreferenceValue] {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw PreferencesError.corruptFile(path: path, reason: "not a property list (\(reason))")
        }
        guard let dictionary = object as? [String: Any] else {
            throw PreferencesError.corruptFile(
                path: path, reason: "the top level is \(type(of: object)), expected a dictionary")
        }
        var values: [String: PreferenceValue] = [:]
        for (key, element) in dictionary {
            guard let value = PreferenceValue(propertyListObject: element) else {
                throw PreferencesError.corruptFile(path: path, reason: "key '\(key)' holds an unsupported \(type(of: element))")
            }
            values[key] = value
        }
        return values
    }

    /// The bytes of a binary property-list file holding `values`, as a preferences file stores them.
    package static func propertyListData(from values: [String: PreferenceValue]) throws -> Data {
        try PropertyListRepresentation.binaryData(.dictionary(values))
    }

    /// Reads a value out of a `PropertyListSerialization` tree.
    ///
    /// Returns nil for anything a property list cannot hold. Booleans are recognised by their Swift type
    /// before numbers, because an `NSNumber` holding 0 or 1 also casts to `Bool`; numbers are split into
    /// integers and reals by their stored type, so `1.0` stays a double.
    init?(propertyListObject object: Any) {
        if type(of: object) == Bool.self, let value = object as? Bool {
            self = .bool(value)
        } else if let string = object as? String {
            self = .string(string)
        } else if let number = object as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "f", "d": self = .double(number.doubleValue)
            default: self = .int(number.intValue)
            }
        } else if let data = object as? Data {
            self = .data(data)
        } else if let date = object as? Date {
            self = .date(date)
        } else if let array = object as? [Any] {
            var values: [PreferenceValue] = []
            values.reserveCapacity(array.count)
            for element in array {
                guard let value = PreferenceValue(propertyListObject: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        } else if let dictionary = object as? [String: Any] {
            var values: [String: PreferenceValue] = [:]
            for (key, element) in dictionary {
                guard let value = PreferenceValue(propertyListObject: element) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        } else {
            return nil
        }
    }
}

/// Codable values stored as ``PreferenceValue``s through Foundation's property list coders.
extension PreferenceValue {
    /// The property-list form of an `Encodable` value (a struct becomes a `.dictionary`, and so on).
    ///
    /// - Throws: the encoder's error when the value cannot be encoded as a property list.
    package init<T: Encodable>(encoding value: T) throws {
        // Wrapped in an array because property list coders reject some top-level scalars. A `JSONValue`
        // keeps its doubles doubles in a stored file, as everywhere.
        let encoder = PropertyListEncoder()
        encoder.userInfo[JSONValue.keepsNumberKinds] = true
        let data = try encoder.encode([value])
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let array = object as? [Any], let first = array.first,
              let converted = PreferenceValue(propertyListObject: first)
        else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "the encoded value is not a property list"))
        }
        self = converted
    }

    /// Decodes a `Decodable` value from this property-list value.
    ///
    /// - Throws: the decoder's `DecodingError` when the stored shape does not match `T`.
    package func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let data = try PropertyListRepresentation.binaryData(.array([self]))
        let decoder = PropertyListDecoder()
        decoder.userInfo[JSONValue.keepsNumberKinds] = true
        let decoded = try decoder.decode([T].self, from: data)
        guard let first = decoded.first else {
            throw DecodingError.valueNotFound(
                T.self, .init(codingPath: [], debugDescription: "the stored value is empty"))
        }
        return first
    }
}
