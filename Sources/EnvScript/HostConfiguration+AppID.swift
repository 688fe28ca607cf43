import Containers

extension HostConfiguration {
    /// The identifier a host with this configuration uses in the home of `containers`, recorded there
    /// when the home has none and ``recordsAppID`` is set.
    ///
    /// - Throws: `HostError/appIDMismatch(home:recorded:requested:record:)` when ``appID`` is not the
    ///   home's recorded identifier; `HostError/invalidAppID(_:reason:)` when it cannot name files.
    func settleAppID(in containers: AppContainer) throws -> String {
        do {
            return try containers.settleApplicationID(requested: appID, fallback: Self.defaultAppID, recording: recordsAppID)
        } catch ApplicationIDError.mismatch(let home, let recorded, let requested, let record) {
            throw HostError.appIDMismatch(home: home, recorded: recorded, requested: requested, record: record)
        } catch ApplicationIDError.invalid(let identifier, let reason) {
            throw HostError.invalidAppID(identifier, reason: reason)
        }
    }
}
