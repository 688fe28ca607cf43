import Containers
import Foundation

/// Whose data a panel shows: for a panel that follows its home's application (the one `envscript ui`
/// serves), the oldest application attached to the home other than this process — read afresh at every
/// request, so an application that starts or stops while the page is open is followed.
struct PanelTarget: Sendable {
    private let hosts: AttachedHosts

    init(home: URL) {
        hosts = AttachedHosts(home: home)
    }

    /// The application to forward to now, or nil when none is attached (the panel then serves the home
    /// itself). Hosts of this process are never chosen: they are the panel's own.
    func application() -> AttachedHostRecord? {
        let ownPID = getpid()
        return (try? hosts.live())?.first { $0.role == .application && $0.pid != ownPID && $0.hasControlSocket }
    }
}
