import Foundation
@testable import Containers

/// The journal reader, which a crashed switch's recovery depends on.
///
/// Invariants: a journal that reads touches nothing outside the home; a refusal is a ``ContainerError/Code/refusedJournal`` naming the file; a journal
/// that reads is written back to bytes that read as the same journal.
enum JournalFuzz {
    static func run(_ data: Data) {
        let journal: Journal
        do {
            journal = try Journal.decode(data, path: "journal.json")
        } catch let error as ContainerError {
            guard case .refusedJournal(let path, _) = error.reason, path == "journal.json" else {
                fuzzFailure("a refusal that does not name the file: \(error)")
            }
            return
        } catch {
            fuzzFailure("a refusal that is not a ContainerError: \(error)")
        }
        let layout = HomeLayout(home: URL(fileURLWithPath: "/fuzz-home"))
        for path in journal.stepPaths + journal.removeAfter {
            let resolved = (layout.absolute(path) as NSString).standardizingPath
            guard resolved.utf8.starts(with: "/fuzz-home/".utf8) else { fuzzFailure("a journal that reads would touch '\(resolved)', outside the home") }
        }
        do {
            let again = try Journal.decode(journal.encoded(), path: "journal.json")
            guard again == journal else { fuzzFailure("journal changed through a write: \(journal) became \(again)") }
        } catch {
            fuzzFailure("a journal that was read cannot be written and read again: \(error)")
        }
    }
}
