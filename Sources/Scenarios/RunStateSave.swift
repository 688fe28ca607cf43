package import EnvScript

/// Saving a run's stored state before the run reports its end.
///
/// `state.stored` values wait in the container's preferences until they are saved, which closing the
/// host would do — but a save that fails there (a full disk, an I/O error on the rename) is only
/// logged, and a run that lost its state would pass. So a run saves first and counts a failed save as
/// a failure of its own, named in the report.
package enum RunStateSave {
    /// The name of the report's entry for a save that failed (its file is ``entryFile``).
    package static let entryName = "(saving the stored state)"
    /// The file of that entry: the run as a whole, as JUnit's `(run)` suite.
    package static let entryFile = "(run)"

    /// Saves what waits in `host`'s stores; returns nil when that worked, else what failed, in words:
    /// the file and the reason (`No space left on device`).
    package static func failure(saving host: EnvScriptHost) -> String? {
        do {
            try host.saveStores()
            return nil
        } catch {
            return "the run's stored state (state.stored) could not be saved: \(error)"
        }
    }

    /// The report's entry for a save that failed: an error of the run, after its tests.
    static func result(for message: String) -> ScenarioResult {
        ScenarioResult(file: entryFile, names: [entryName], outcome: .error(message: message, traceback: nil), duration: .zero)
    }
}
