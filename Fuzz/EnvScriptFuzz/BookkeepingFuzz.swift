import Foundation
@testable import Containers

/// The bookkeeping readers: `state.json` and each container's `container.json`.
///
/// Invariants: a refusal is a ``ContainerError/Code/corruptMetadata`` naming the file; a record
/// that reads is written back (as the store writes it) to bytes that read as the same record.
enum BookkeepingFuzz {
    private static let store = MetadataStore(layout: HomeLayout(home: URL(fileURLWithPath: "/fuzz-home")))

    static func run(_ data: Data) {
        if let state = read({ try ActivationState.decode(data, path: "state.json") }) {
            let again = read { try ActivationState.decode(store.encode(state), path: "state.json") }
            guard again == state else { fuzzFailure("state record changed through a write: \(state) became \(String(describing: again))") }
        }
        // The folder's UUID is the one the record names, when it names one, so that the rest is read too.
        let folder = (try? JSONDecoder().decode(RecordUUID.self, from: data))?.uuid ?? Container.defaultUUID
        if let record = read({ try Container.decodeRecord(data, path: "container.json", folder: folder) }) {
            let again = read { try Container.decodeRecord(store.encode(record), path: "container.json", folder: folder) }
            guard again == record else { fuzzFailure("container record changed through a write: \(record) became \(String(describing: again))") }
        }
    }

    private struct RecordUUID: Decodable { var uuid: UUID }

    /// The record, or nil after a refusal that names its file as it must.
    private static func read<Record>(_ body: () throws -> Record) -> Record? {
        do {
            return try body()
        } catch let error as ContainerError {
            guard case .corruptMetadata(let path, _) = error.reason, path.hasSuffix(".json") else {
                fuzzFailure("a refusal that does not name the file: \(error)")
            }
            return nil
        } catch {
            fuzzFailure("a refusal that is not a ContainerError: \(error)")
        }
    }
}
