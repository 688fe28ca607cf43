import Foundation

extension AppContainer {
    /// The identifier of the application this home belongs to, as the first process to record one
    /// left it in `.envscript-containers/application.json`; nil when none was recorded.
    ///
    /// Reading takes no lock. The identifier never changes once written, and survives switches and
    /// ``reset()``.
    ///
    /// - Throws: ``ContainerError/Code/corruptMetadata`` when the record is unusable.
    public var recordedApplicationID: String? {
        get throws { try ApplicationRecord.read(layout)?.applicationID }
    }

    /// The path of the file that records the home's application identifier (which may not exist yet).
    package var applicationRecordPath: String { layout.applicationRecord }

    /// Settles which application's files this process uses in the home, and returns that identifier.
    ///
    /// - `requested` given: the home must have no identifier recorded, or this one.
    /// - `requested` nil: the recorded identifier, or `fallback` when the home has none.
    ///
    /// When the home has none and `recording` is true, the identifier returned is recorded, under the
    /// home's lock: of processes settling a new home at once, the first to take the lock records its
    /// identifier and the others then see it (and fail if they asked for another). With `recording`
    /// false nothing is written, so a home nobody recorded stays untouched.
    ///
    /// - Throws: ``ApplicationIDError/Code/mismatch`` when another identifier
    ///   is recorded; ``ApplicationIDError/Code/invalid`` when the identifier to use is not valid;
    ///   ``ContainerError/Code/corruptMetadata`` when the record is unusable.
    @discardableResult
    package func settleApplicationID(requested: String?, fallback: String, recording: Bool) throws -> String {
        let wanted = requested ?? fallback
        try ApplicationID.validate(wanted)
        // The identifier never changes once written, so one found without the lock is final.
        if let recorded = try recordedApplicationID { return try agreeing(recorded, with: requested) }
        guard recording else { return wanted }
        return try exclusively("record the application identifier", initialize: false) { _ in
            if let recorded = try ApplicationRecord.read(layout)?.applicationID {
                return try agreeing(recorded, with: requested)
            }
            try ApplicationRecord(applicationID: wanted, recordedAt: Date()).write(layout)
            return wanted
        }
    }

    /// `recorded`, unless the caller asked for another identifier.
    private func agreeing(_ recorded: String, with requested: String?) throws -> String {
        if let requested, requested != recorded {
            throw ApplicationIDError.mismatch(
                home: layout.home, recorded: recorded, requested: requested, record: layout.applicationRecord)
        }
        return recorded
    }
}
