/// What one client may hold of a server of EnvScript (a host's control socket, the control panel), so
/// that nobody who can reach it — another local user, without the token — can use up the process's
/// file descriptors or keep it busy forever.
///
/// Connections past ``maximumConnections`` wait in the system's queue of pending connections until one
/// closes; a connection that sends no request for ``idleTimeout``, or takes longer than that to send a
/// request's head (a "slowloris" client), is closed; and so is one whose request, head and body, takes
/// longer than ``requestTimeout`` to arrive. A request being answered — a switch waiting for its hooks,
/// an event stream — is never cut by these.
///
/// A server that anyone on the machine may reach and that knows its access token (the control panel)
/// goes further (`ConnectionRegistry`): it accepts every connection, closes the oldest one that has
/// not shown the token when more than ``maximumConnections`` are open, and closes any that has not
/// shown it within ``unprovenTimeout``, so that connections without the token never hold the owner out.
public struct ServerLimits: Sendable, Equatable {
    /// The most connections served at once. The server also keeps to an eighth of the process's file
    /// descriptor limit (whichever is lower), so that its connections alone never use them up.
    public var maximumConnections: Int
    /// How long a connection may stay open with no request under way, and how long a request's head
    /// may take to arrive.
    public var idleTimeout: Duration
    /// How long a whole request, its head and body, may take to arrive once its head has.
    public var requestTimeout: Duration
    /// How long a connection to a server that knows its access token may stay open before one of its
    /// requests carries the token.
    public var unprovenTimeout: Duration

    /// Limits with the given values; the defaults suit a panel in a browser and the command line.
    public init(
        maximumConnections: Int = 64, idleTimeout: Duration = .seconds(30), requestTimeout: Duration = .seconds(60),
        unprovenTimeout: Duration = .seconds(5)
    ) {
        self.maximumConnections = maximumConnections
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.unprovenTimeout = unprovenTimeout
    }

    /// The connections served at once: ``maximumConnections``, or less where the process may open few
    /// file descriptors; at least one.
    var connectionCap: Int {
        max(1, min(maximumConnections, DescriptorLimit.current / 8))
    }
}
