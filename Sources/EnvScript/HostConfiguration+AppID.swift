import Containers

extension HostConfiguration {
    /// The identifier a host with this configuration uses in the home of `containers`, recorded there
    /// when the home has none and `recordsAppID` is set.
    ///
    /// - Throws: ``HostError/Code/appIDMismatch`` when ``appID`` is not the
    ///   home's recorded identifier; ``HostError/Code/invalidAppID`` when it cannot name files.
    func settleAppID(in containers: AppContainer) throws -> String {
        do {
            return try containers.settleApplicationID(requested: appID, fallback: Self.defaultAppID, recording: recordsAppID)
        } catch let error as ApplicationIDError {
            switch error.reason {
            case .mismatch(let home, let recorded, let requested, let record):
                throw HostError.appIDMismatch(home: home, recorded: recorded, requested: requested, record: record)
            case .invalid(let identifier, let reason):
                throw HostError.invalidAppID(identifier, reason: reason)
            }
        }
    }
}
