import Foundation

/// One way a home disagrees with itself — its bookkeeping with its files, or the live home with the
/// record of which container is active — as ``HomeDoctor`` finds it.
package struct HomeInconsistency: Sendable, Hashable {
    /// What kind of inconsistency it is; the raw value is its name in `container doctor --json`.
    package enum Kind: String, Sendable, Codable, CaseIterable {
        /// A reset was interrupted: the renamed bookkeeping folder is still there.
        case interruptedReset
        /// `application.json` cannot be read.
        case damagedApplicationRecord
        /// `state.json` cannot be read, so the active container is unknown.
        case damagedStateRecord
        /// `state.json` names an active container that has no folder.
        case missingActiveContainer
        /// A crashed change left `journal.json`, which the next change would replay, or `journal.undo.json`
        /// (a change that failed or was interrupted, cut short while being undone), which the next opening
        /// of the home goes on undoing.
        case leftoverJournal
        /// `journal.json` (or `journal.undo.json`) is not a journal this EnvScript reads.
        case damagedJournal
        /// `journal.json` (or `journal.undo.json`) does not belong to the home's current state, so no change
        /// replays it; or both are there, which no change leaves.
        case refusedJournal
        /// A journal moved away from `journal.json` or `journal.undo.json` (as a refusal suggests) whose
        /// entries are all in place.
        case movedAwayJournal
        /// The live home and the stashes disagree with `state.json`: a change stopped half way.
        case halfSwitchedHome
        /// A container's `container.json` is missing or cannot be read.
        case damagedContainerRecord
        /// Something in the containers folder that is not a container's folder.
        case strayEntry
        /// An inactive container has no stash folder.
        case missingStash
        /// A temporary file of an interrupted atomic write.
        case temporaryFile
        /// A bookkeeping folder or file that others may read or enter.
        case looseMode
        /// Entries left in the trash by an interrupted change.
        case leftoverTrash

        /// Words for people: "damaged container record".
        package var title: String {
            rawValue.reduce(into: "") { words, character in
                if character.isUppercase { words += " " + character.lowercased() } else { words.append(character) }
            }
        }

        /// Whether it means that entries of the home may be in the wrong container, which a plain list
        /// of the containers would not show.
        package var misplacesEntries: Bool { self == .halfSwitchedHome }

        /// Repairs run by rank, lowest first: whatever moves entries comes before what tidies up.
        var repairRank: Int {
            switch self {
            case .interruptedReset: 0
            case .leftoverJournal, .damagedJournal, .refusedJournal, .movedAwayJournal, .halfSwitchedHome: 1
            case .damagedApplicationRecord, .damagedStateRecord, .missingActiveContainer, .damagedContainerRecord, .strayEntry: 2
            case .missingStash: 3
            case .temporaryFile, .looseMode, .leftoverTrash: 4
            }
        }
    }

    /// What kind of inconsistency it is.
    package let kind: Kind
    /// The file or folder concerned.
    package let path: String
    /// What is wrong, in words.
    package let problem: String
    /// What `--repair` does about it, or, when it cannot repair it, what to do by hand.
    package let repair: String
    /// Whether `--repair` repairs it.
    package let isRepairable: Bool

    init(_ kind: Kind, _ path: String, problem: String, repair: String, isRepairable: Bool = true) {
        self.kind = kind
        self.path = path
        self.problem = problem
        self.repair = repair
        self.isRepairable = isRepairable
    }

    /// The same inconsistency found again: same kind, same path.
    func isSame(as other: HomeInconsistency) -> Bool {
        kind == other.kind && path == other.path
    }
}

/// An inconsistency and what a repair did about it.
package struct HomeDoctorFinding: Sendable {
    /// Where an inconsistency stands after ``HomeDoctor/repair(now:)``.
    package enum Outcome: String, Sendable, Codable {
        /// Reported only (no repair was asked for).
        case found
        /// Repaired: `note` says what was done.
        case repaired
        /// Still there: `note` says why.
        case remains
    }

    /// The inconsistency.
    package let inconsistency: HomeInconsistency
    /// Where it stands.
    package var outcome: Outcome
    /// What was done, or why it remains.
    package var note: String?

    /// A finding with this outcome.
    package init(inconsistency: HomeInconsistency, outcome: Outcome, note: String? = nil) {
        self.inconsistency = inconsistency
        self.outcome = outcome
        self.note = note
    }
}
