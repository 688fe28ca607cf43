/// A tweak read by ``TweakJSON/parseLocated(_:file:source:)`` with where it is written in its document.
package struct LocatedTweak: Sendable, Hashable {
    /// A line and column in a document, both counted from 1 (columns count bytes).
    package struct Location: Sendable, Hashable {
        /// The line, from 1.
        package var line: Int
        /// The column in bytes, from 1.
        package var column: Int

        /// Creates a location.
        package init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// The tweak.
    package var tweak: Tweak
    /// Where the variable's key is.
    package var location: Location
    /// Where the key of each field written for the variable is ("Value", "GeneratedPropertyName", ...).
    package var fieldLocations: [String: Location]

    /// Creates a located tweak.
    package init(tweak: Tweak, location: Location, fieldLocations: [String: Location]) {
        self.tweak = tweak
        self.location = location
        self.fieldLocations = fieldLocations
    }
}
