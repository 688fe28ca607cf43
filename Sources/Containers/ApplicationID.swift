/// What makes a valid application identifier.
///
/// The identifier names the application's files (`Library/Preferences/<identifier>.plist`,
/// `Library/Application Support/<identifier>`, the key file `keys/<identifier>.key`), so it must be
/// usable as one file name: reverse-DNS names such as `com.example.shop` are the usual choice.
package enum ApplicationID {
    /// The longest identifier, in UTF-8 bytes, leaving room in a 255-byte file name for the suffixes and
    /// temporary names of the files it names.
    package static let maximumLength = 200

    /// Throws ``ApplicationIDError/Code/invalid`` unless `identifier` can name the application's
    /// files: 1 to 200 bytes, no `/`, no control characters, no spaces at either end, not `.` or `..`.
    package static func validate(_ identifier: String) throws {
        if let problem = problem(with: identifier) {
            throw ApplicationIDError.invalid(identifier, reason: problem)
        }
    }

    /// Why `identifier` is not valid, or nil when it is.
    static func problem(with identifier: String) -> String? {
        if identifier.isEmpty { return "is empty" }
        if identifier.utf8.count > maximumLength { return "is longer than \(maximumLength) bytes" }
        if identifier == "." || identifier == ".." { return "is '.' or '..', which name folders" }
        if identifier.contains("/") { return "contains '/', but it names a file" }
        if identifier.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "contains a control character"
        }
        if identifier.first!.isWhitespace || identifier.last!.isWhitespace {
            return "begins or ends with a space"
        }
        return nil
    }
}
