import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The contents of `application.json` in a home's bookkeeping folder: the identifier of the application
/// the home belongs to, which names that application's files in every container
/// (`Library/Preferences/<identifier>.plist`, ...), and the start-up script it loads.
///
/// The first process that records an identifier under the home's lock decides it; later ones read it.
/// The start-up script is written beside it (``AppContainer/recordStartupScript(_:replacing:)``) and
/// may change: a project moves. The record lives in the bookkeeping folder, so it is never switched with
/// the containers, and ``AppContainer/reset()`` carries it over: a reset forgets the containers, not
/// whose home it is.
struct ApplicationRecord: Codable, Sendable, Equatable {
    /// The name of the record in the bookkeeping folder.
    static let fileName = "application.json"

    var version = 1
    /// The application's identifier.
    var applicationID: String
    /// When it was recorded; absent from records written by hand.
    var recordedAt: Date?
    /// The absolute path of the start-up script the application loads; absent until one is recorded
    /// (an older version's record has none, and reads the same: JSON readers pass over unknown keys).
    var startupScript: String?

    /// The record of `layout`'s home, or nil when none was written.
    ///
    /// While a reset is under way the record sits in the renamed bookkeeping folder, where it is found
    /// too, so readers that take no lock never see a reset home as unclaimed.
    static func read(_ layout: HomeLayout) throws -> ApplicationRecord? {
        for path in [layout.applicationRecord, layout.removedApplicationRecord] {
            if let data = try FileSystem.read(path) { return try decode(data, path: path) }
        }
        return nil
    }

    /// Writes the record into `layout`'s bookkeeping folder (temporary file, fsync, rename). Run with
    /// the home's lock held, which created the folder.
    func write(_ layout: HomeLayout) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw ContainerError.io(path: layout.applicationRecord, underlying: error)
        }
        try FileSystem.writeAtomically(data, to: layout.applicationRecord)
        // The bookkeeping folder may be new with this record: make its name durable too.
        try FileSystem.syncDirectory(layout.home)
    }

    private static func decode(_ data: Data, path: String) throws -> ApplicationRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let record: ApplicationRecord
        do {
            record = try decoder.decode(ApplicationRecord.self, from: data)
        } catch {
            throw ContainerError.corruptMetadata(path: path, reason: "not an application record (\(error)); write {\"applicationID\": \"<identifier>\", \"version\": 1}, or delete it so that the next host to open the home records its own")
        }
        guard record.version == 1 else {
            throw ContainerError.corruptMetadata(path: path, reason: "its version \(record.version) is unknown to this EnvScript (which reads version 1); open the home with a newer EnvScript")
        }
        if let problem = ApplicationID.problem(with: record.applicationID) {
            throw ContainerError.corruptMetadata(path: path, reason: "its applicationID '\(record.applicationID)' \(problem); correct it")
        }
        if let script = record.startupScript, !script.hasPrefix("/") {
            throw ContainerError.corruptMetadata(path: path, reason: "its startupScript '\(script)' is not an absolute path; correct it, or remove that key")
        }
        return record
    }

    /// Removes the bookkeeping folder a reset renamed away, first moving its record back into the live
    /// bookkeeping folder when that has none, so that a crash during a reset never loses the record.
    ///
    /// Safe without the home's lock and against other processes doing the same: the record is moved
    /// with `link(2)`, which never replaces a record already in place, and a record is only ever written
    /// under the lock after this ran there (``AppContainer/exclusively(_:initialize:_:)`` runs it first).
    static func discardRemovedBookkeeping(_ layout: HomeLayout) throws {
        if try FileSystem.kind(at: layout.removedApplicationRecord) == .regularFile {
            try FileSystem.makePrivateDirectory(layout.bookkeeping)
            if systemLink(layout.removedApplicationRecord, layout.applicationRecord) == 0 {
                try FileSystem.syncDirectory(layout.bookkeeping)
                try FileSystem.syncDirectory(layout.home)
            } else if errno != EEXIST && errno != ENOENT {
                // EEXIST: a record is already in place. ENOENT: another process moved it first.
                throw ContainerError.io(
                    path: layout.removedApplicationRecord,
                    underlying: SystemCallError("link to '\(layout.applicationRecord)'"))
            }
        }
        try FileSystem.removeTree(layout.removedBookkeeping)
    }
}

extension HomeLayout {
    /// `<home>/.envscript-containers/application.json`.
    var applicationRecord: String { bookkeeping + "/" + ApplicationRecord.fileName }
    /// The record inside the bookkeeping folder that a reset renamed away.
    var removedApplicationRecord: String { removedBookkeeping + "/" + ApplicationRecord.fileName }
}

#if canImport(Glibc)
private func systemLink(_ source: String, _ destination: String) -> Int32 { Glibc.link(source, destination) }
#elseif canImport(Musl)
private func systemLink(_ source: String, _ destination: String) -> Int32 { Musl.link(source, destination) }
#else
private func systemLink(_ source: String, _ destination: String) -> Int32 { Darwin.link(source, destination) }
#endif
