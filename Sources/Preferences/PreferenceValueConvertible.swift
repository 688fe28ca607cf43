package import Foundation

/// A type that converts to and from ``PreferenceValue`` directly, without Foundation's property-list
/// coders and the `Data` and `Any` trees they go through.
///
/// A conversion must give exactly what the property-list coders give for the types that are also
/// `Codable` — the value on disk stays the same whichever way it was made. Reading may recognise only
/// the forms its own writing makes: for anything else ``init(preferenceValue:)`` returns nil, and
/// ``PreferenceCodec`` then asks the property-list decoder, which may still accept it (an integer read as
/// a `Double`) or throws the error it always threw.
package protocol PreferenceValueConvertible: SendableMetatype {
    /// The preference value of this value.
    var preferenceValue: PreferenceValue { get }

    /// The value `stored` holds, or nil when it is not in a form this conversion recognises.
    init?(preferenceValue stored: PreferenceValue)
}

extension Bool: PreferenceValueConvertible {
    /// `.bool`.
    package var preferenceValue: PreferenceValue { .bool(self) }
    /// The value of a `.bool`.
    package init?(preferenceValue stored: PreferenceValue) {
        guard case .bool(let value) = stored else { return nil }
        self = value
    }
}

extension Int: PreferenceValueConvertible {
    /// `.int`.
    package var preferenceValue: PreferenceValue { .int(self) }
    /// The value of an `.int`.
    package init?(preferenceValue stored: PreferenceValue) {
        guard case .int(let value) = stored else { return nil }
        self = value
    }
}

extension Double: PreferenceValueConvertible {
    /// `.double`.
    package var preferenceValue: PreferenceValue { .double(self) }
    /// The value of a `.double`.
    package init?(preferenceValue stored: PreferenceValue) {
        guard case .double(let value) = stored else { return nil }
        self = value
    }
}

extension String: PreferenceValueConvertible {
    /// `.string`.
    package var preferenceValue: PreferenceValue { .string(self) }
    /// The value of a `.string` — also of `PreferenceValue/nullMarker`, which Foundation's
    /// property-list decoder refuses as a `String` although its encoder writes it for one.
    package init?(preferenceValue stored: PreferenceValue) {
        guard case .string(let value) = stored else { return nil }
        self = value
    }
}

extension Data: PreferenceValueConvertible {
    /// `.data`.
    package var preferenceValue: PreferenceValue { .data(self) }
    /// The value of a `.data`.
    package init?(preferenceValue stored: PreferenceValue) {
        guard case .data(let value) = stored else { return nil }
        self = value
    }
}

extension Date: PreferenceValueConvertible {
    /// `.date`.
    package var preferenceValue: PreferenceValue { .date(self) }
    /// The value of a `.date`.
    package init?(preferenceValue stored: PreferenceValue) {
        guard case .date(let value) = stored else { return nil }
        self = value
    }
}

extension Optional: PreferenceValueConvertible where Wrapped: PreferenceValueConvertible {
    /// The wrapped value's, or — as Foundation's property-list encoder writes nil — the string
    /// `PreferenceValue/nullMarker`.
    package var preferenceValue: PreferenceValue {
        map(\.preferenceValue) ?? .string(PreferenceValue.nullMarker)
    }
    /// nil for `PreferenceValue/nullMarker`, else the wrapped value's.
    package init?(preferenceValue stored: PreferenceValue) {
        if stored == .string(PreferenceValue.nullMarker) {
            self = Optional<Wrapped>.none
            return
        }
        guard let wrapped = Wrapped(preferenceValue: stored) else { return nil }
        self = Optional<Wrapped>.some(wrapped)
    }
}

extension Array: PreferenceValueConvertible where Element: PreferenceValueConvertible {
    /// `.array` of the elements' values.
    package var preferenceValue: PreferenceValue { .array(map(\.preferenceValue)) }
    /// The elements of an `.array`, when every one is recognised.
    package init?(preferenceValue stored: PreferenceValue) {
        guard case .array(let values) = stored else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values {
            guard let element = Element(preferenceValue: value) else { return nil }
            elements.append(element)
        }
        self = elements
    }
}

extension Dictionary: PreferenceValueConvertible where Key == String, Value: PreferenceValueConvertible {
    /// `.dictionary` of the values' values.
    package var preferenceValue: PreferenceValue { .dictionary(mapValues(\.preferenceValue)) }
    /// The entries of a `.dictionary`, when every value is recognised.
    package init?(preferenceValue stored: PreferenceValue) {
        guard case .dictionary(let values) = stored else { return nil }
        var entries: [String: Value] = [:]
        entries.reserveCapacity(values.count)
        for (key, value) in values {
            guard let entry = Value(preferenceValue: value) else { return nil }
            entries[key] = entry
        }
        self = entries
    }
}

extension PreferenceValue {
    /// The string Foundation's property-list encoder writes for nil, which its decoder reads as nil.
    package static let nullMarker = "$null"
}
