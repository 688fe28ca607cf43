import Hummingbird
import Locking

/// The panel's access guard, installed before the server binds and given its rules once the port —
/// which the rules name — is known. Until then it refuses everything.
final class AccessBox: RouterMiddleware, Sendable {
    typealias Context = BasicRequestContext
    private let access = Locked<PanelAccess?>(nil)

    func set(_ access: PanelAccess) {
        self.access.withLock { $0 = access }
    }

    /// Whether `request` carries the panel's token (false until the rules are set).
    func carriesToken(_ request: Request) -> Bool {
        guard let access = access.withLock({ $0 }) else { return false }
        return PanelAccessGuard<Context>.carriesToken(request, access: access)
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let access = access.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
        return try await PanelAccessGuard<Context>(access: access).handle(request, context: context, next: next)
    }
}
