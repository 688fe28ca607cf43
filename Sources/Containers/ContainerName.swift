import Foundation

/// The rules for a container's display name.
///
/// A name is text for people: 1 to 255 characters, no control characters (newlines, tabs, NUL…), and
/// not itself a UUID (which would make "name or UUID" lookups ambiguous). It never becomes a path: the
/// container's folder is named by its UUID.
enum ContainerName {
    static let maximumLength = 255

    /// Throws ``ContainerError/invalidName(_:reason:)`` unless `name` follows the rules.
    static func validate(_ name: String) throws {
        if name.isEmpty {
            throw ContainerError.invalidName(name, reason: "a name must have at least one character")
        }
        if name.count > maximumLength {
            throw ContainerError.invalidName(
                String(name.prefix(40)) + "…",
                reason: "a name has at most \(maximumLength) characters, this one has \(name.count)")
        }
        if let control = name.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            let code = String(control.value, radix: 16, uppercase: true)
            throw ContainerError.invalidName(
                name, reason: "control characters such as U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) are not allowed")
        }
        if UUID(uuidString: name) != nil {
            throw ContainerError.invalidName(
                name, reason: "a name may not be a UUID, since containers are also looked up by UUID")
        }
    }
}
