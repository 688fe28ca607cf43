package import Foundation

extension AppContainer {
    /// The absolute path of the start-up script recorded for the home at `home` (see
    /// ``recordStartupScript(_:replacing:)``), nil when none is recorded or the home has no record.
    ///
    /// Reads the record without opening the home (nothing is created, no lock is taken), so a command
    /// can learn which script to load before it sets up the Lua state that runs it.
    ///
    /// - Throws: ``ContainerError/Code/corruptMetadata`` when the record is unusable.
    package static func recordedStartupScript(home: URL) throws -> String? {
        try ApplicationRecord.read(HomeLayout(home: home))?.startupScript
    }

    /// Records `path` (absolute) as the start-up script of the home's application, beside its
    /// identifier, so that a command run from another folder loads the same script.
    ///
    /// Only a home whose application identifier is recorded (`settleApplicationID(requested:fallback:recording:)`
    /// with `recording`) gets one: a process that does not claim the home does not write in it.
    /// With `replacing` false a script already recorded is kept (a tool run from another project
    /// must not take the application's place); with it true the application records where its script is
    /// now. Writing the same path again writes nothing.
    ///
    /// - Returns: whether the record now names `path`.
    /// - Throws: ``ContainerError/Code/corruptMetadata`` when the record is unusable, or the
    ///   errors of writing it.
    @discardableResult
    package func recordStartupScript(_ path: String, replacing: Bool) throws -> Bool {
        precondition(path.hasPrefix("/"), "the start-up script to record must be an absolute path")
        /// nil when `record` is to be written; else whether it names `path` as it is.
        func settled(_ record: ApplicationRecord?) -> Bool? {
            guard let record else { return false }
            if record.startupScript == path { return true }
            return record.startupScript != nil && !replacing ? false : nil
        }
        // Read without the lock first: most openings find the record as they would leave it.
        if let outcome = settled(try ApplicationRecord.read(layout)) { return outcome }
        return try exclusively("record the start-up script", initialize: false) { _ in
            let current = try ApplicationRecord.read(layout)
            if let outcome = settled(current) { return outcome }
            var record = current!
            record.startupScript = path
            try record.write(layout)
            return true
        }
    }
}
