public import Foundation

/// One switchable environment of an application's home: its identity and bookkeeping.
///
/// Values are snapshots: they do not change when the container does; ask the ``AppContainer`` again for
/// fresh ones. Two snapshots are equal when every field is.
public struct Container: Codable, Sendable, Equatable, Hashable {
    /// The UUID of the DEFAULT container, which holds the home's original data.
    public static let defaultUUID = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
    /// The name of the DEFAULT container.
    public static let defaultName = "DEFAULT"

    /// The identity of the container, and the name of its folder on disk.
    public let uuid: UUID
    /// The display name, unique within the home.
    public internal(set) var name: String
    /// Free text shown with the name; nil when none was given.
    public internal(set) var description: String?
    /// When the container was created (millisecond precision).
    package let createdAt: Date
    /// When the container was last made the active one; nil if never.
    package internal(set) var lastActivatedAt: Date?
    /// How many times the container was made the active one.
    package internal(set) var activatedCount: Int

    /// Whether this is the DEFAULT container, which holds the home's original data.
    public var isDefault: Bool { uuid == Self.defaultUUID }

    init(uuid: UUID, name: String, description: String?, createdAt: Date,
         lastActivatedAt: Date? = nil, activatedCount: Int = 0) {
        self.uuid = uuid
        self.name = name
        self.description = description
        self.createdAt = Timestamp.normalized(createdAt)
        self.lastActivatedAt = lastActivatedAt.map(Timestamp.normalized)
        self.activatedCount = activatedCount
    }

    /// The DEFAULT container as it is before anything was recorded about it.
    static func implicitDefault(createdAt: Date) -> Container {
        Container(uuid: defaultUUID, name: defaultName, description: nil, createdAt: createdAt)
    }

    /// This container after one more activation at `date`.
    func activated(at date: Date) -> Container {
        var copy = self
        copy.lastActivatedAt = Timestamp.normalized(date)
        copy.activatedCount += 1
        return copy
    }

    private enum CodingKeys: String, CodingKey {
        case uuid, name, description, createdAt, lastActivatedAt, activatedCount, isDefault
    }

    /// Reads a container record as written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try values.decode(UUID.self, forKey: .uuid)
        name = try values.decode(String.self, forKey: .name)
        description = try values.decodeIfPresent(String.self, forKey: .description)
        createdAt = try Timestamp.decode(values.decode(String.self, forKey: .createdAt), key: "createdAt")
        lastActivatedAt = try values.decodeIfPresent(String.self, forKey: .lastActivatedAt)
            .map { try Timestamp.decode($0, key: "lastActivatedAt") }
        activatedCount = try values.decode(Int.self, forKey: .activatedCount)
    }

    /// Writes dates as ISO 8601 text with milliseconds, and `isDefault` for readers of the file (it is
    /// derived from the UUID when read back).
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(uuid, forKey: .uuid)
        try values.encode(name, forKey: .name)
        try values.encodeIfPresent(description, forKey: .description)
        try values.encode(Timestamp.encode(createdAt), forKey: .createdAt)
        try values.encodeIfPresent(lastActivatedAt.map(Timestamp.encode), forKey: .lastActivatedAt)
        try values.encode(activatedCount, forKey: .activatedCount)
        try values.encode(isDefault, forKey: .isDefault)
    }
}

/// The older name of ``Container`` in AppContainer's API.
package typealias ContainerInfo = Container

/// Dates in metadata files: ISO 8601 text with milliseconds, and in memory always the `Date` that text
/// reads back as, so a snapshot equals the same container read again from disk.
enum Timestamp {
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    /// The date rounded to the millisecond, as it will read back from a file.
    static func normalized(_ date: Date) -> Date {
        Self.date(milliseconds: milliseconds(date))
    }

    static func encode(_ date: Date) -> String {
        let total = milliseconds(date)
        let seconds = Int64((Double(total) / 1000).rounded(.down))
        let millis = total - seconds * 1000
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds))
        let text = formatter().string(from: whole) // yyyy-MM-ddTHH:mm:ssZ
        return String(text.dropLast()) + String(format: ".%03dZ", millis)
    }

    static func decode(_ text: String, key: String) throws -> Date {
        // Four-digit years from 0001 only, which is what `encode` writes. The parser is Foundation's own
        // (ISO8601DateFormatter goes through ICU, which a fraction of a hundred digits crashes).
        let year = text.utf8.prefix(5)
        if year.count == 5, year.prefix(4).allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
           year.last == UInt8(ascii: "-"), !text.hasPrefix("0000"),
           let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
        {
            return normalized(date)
        }
        throw DecodingError.dataCorrupted(.init(
            codingPath: [], debugDescription: "'\(key)' is not an ISO 8601 date from the years 0001 to 9999 (like 2026-11-24T10:00:00.000Z): '\(text)'"))
    }

    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }
}
