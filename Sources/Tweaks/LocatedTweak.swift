/// A tweak read by ``TweakJSON/parseLocated(_:file:source:)`` with where it is written in its document.
public struct LocatedTweak: Sendable, Hashable {
    /// A line and column in a document, both counted from 1 (columns count bytes).
    public struct Location: Sendable, Hashable {
        /// The line, from 1.
        public var line: Int
        /// The column in bytes, from 1.
        public var column: Int

        /// Creates a location.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// The tweak.
    public var tweak: Tweak
    /// Where the variable's key is.
    public var location: Location
    /// Where the key of each field written for the variable is ("Value", "GeneratedPropertyName", ...).
    public var fieldLocations: [String: Location]

    /// Creates a located tweak.
    public init(tweak: Tweak, location: Location, fieldLocations: [String: Location]) {
        self.tweak = tweak
        self.location = location
        self.fieldLocations = fieldLocations
    }
}
