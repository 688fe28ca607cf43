import Locking
package import NIOCore

/// The connections of a server that anyone on the machine may reach (the control panel's TCP port),
/// told apart by whether they have shown the access token: a connection has not until one of its
/// requests carries it (``prove(_:)``).
///
/// Connections that have not shown it cannot hold the owner out. The server accepts every connection;
/// past ``cap`` open ones, the oldest connection without the token is closed to make room, or the new
/// one when all of them have shown it. A connection without the token is also closed
/// ``unprovenLifetime`` after it opened (``ConnectionGuard``). So 1,100 idle connections, or 70 that
/// trickle a request's head byte by byte, leave the owner's next connection in at once.
package final class ConnectionRegistry: Sendable {
    private struct Entry {
        let channel: any Channel
        let order: Int
        var proven = false
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var opened = 0
    }

    /// The most connections open at once.
    let cap: Int
    /// How long a connection may stay open without showing the token.
    let unprovenLifetime: TimeAmount
    private let state = Locked(State())

    package init(cap: Int, unprovenLifetime: TimeAmount) {
        self.cap = max(1, cap)
        self.unprovenLifetime = unprovenLifetime
    }

    /// Records `channel`, just accepted; answers the connection to close to stay within ``cap``, if
    /// any: the oldest without the token, or `channel` itself when all have shown it.
    ///
    /// The owner's new connection is the newest until its first request shows the token: a flood must
    /// open ``cap`` connections in that moment (a millisecond) to close it. Choosing at random, or
    /// sparing young connections, was tried: either closed the owner's connection under a flood that
    /// had just begun.
    func opened(_ channel: any Channel) -> (any Channel)? {
        state.withLock { state in
            state.opened += 1
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, order: state.opened)
            guard state.entries.count > cap else { return nil }
            let victim = state.entries.values.filter { !$0.proven }.min { $0.order < $1.order }?.channel ?? channel
            state.entries[ObjectIdentifier(victim)] = nil
            return victim
        }
    }

    /// `channel` carried the token in a request: it is kept like any connection of the owner's.
    func prove(_ channel: any Channel) {
        state.withLock { $0.entries[ObjectIdentifier(channel)]?.proven = true }
    }

    /// Whether `channel` has shown the token (false once it is closed).
    func isProven(_ channel: any Channel) -> Bool {
        state.withLock { $0.entries[ObjectIdentifier(channel)]?.proven ?? false }
    }

    func closed(_ channel: any Channel) {
        state.withLock { _ = $0.entries.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

/// Registers its connection with a ``ConnectionRegistry`` as it is set up, closes one to stay within
/// the cap, and closes its own connection if it has not shown the token within the registry's
/// `unprovenLifetime`.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let registry: ConnectionRegistry
    private var lifetime: Scheduled<Void>?

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        registry.opened(channel)?.close(promise: nil)
        let registry = registry
        lifetime = context.eventLoop.scheduleTask(in: registry.unprovenLifetime) {
            if !registry.isProven(channel) { channel.close(promise: nil) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        forget(context.channel)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        forget(context.channel)
    }

    private func forget(_ channel: any Channel) {
        lifetime?.cancel()
        lifetime = nil
        registry.closed(channel)
    }
}
