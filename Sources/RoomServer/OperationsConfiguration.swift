/// How a ``RoomServer`` is operated over plain HTTP on its own port (docs/operations.md): health and readiness
/// for probes, the live view of the rooms behind an admin token, and the metrics exposition.
/// ``RoomServer/Configuration/operations``.
///
/// `/healthz` and `/readyz` are always served. Everything that shows the rooms (`/rooms`, `/dashboard` and the
/// `/admin` subscription) is off, answering 404, until ``adminToken`` is set: nothing is on by default without one.
public struct OperationsConfiguration: Sendable {
    /// The admin token (docs/operations.md#the-admin-token): `GET /rooms` and the `/admin` WebSocket take it as
    /// `Authorization: Bearer <token>`, the dashboard in its login form (`POST /dashboard/login`), which opens a
    /// session cookie good for `/dashboard`, `/rooms` and `/admin`; never in a URL. `nil` (the default) turns
    /// `/rooms`, `/dashboard` and `/admin` off (404). At least ``minimumAdminTokenLength`` bytes
    /// (``RoomServer/start(_:)`` throws ``AdminTokenTooShort`` otherwise); compared in constant time; wrong ones are
    /// limited by ``adminGuessLimit``. Use a long random value.
    public var adminToken: String?
    /// How many wrong admin tokens one peer address may present before it is locked out (``AdminGuessLimit``).
    public var adminGuessLimit: AdminGuessLimit
    /// How long a dashboard login lasts (its cookie's `Max-Age`, and the server forgets it then). Default 15 minutes;
    /// an `/admin` socket opened within it stays open past it.
    public var adminSessionLifetime: Duration
    /// The metrics exposition served on `GET /metrics` (Prometheus text format 0.0.4, `text/plain; version=0.0.4`);
    /// `nil` (the default) answers 404. Called for each scrape, on no particular thread: it must not block.
    public var metricsExposition: (@Sendable () -> String)?
    /// A second plain-HTTP listener, for deployments that keep the main port private: it serves `/healthz`,
    /// `/readyz` and `/metrics` only, accepts no WebSocket upgrade, and never serves the admin routes. `nil` (the
    /// default): none. Read its address back from ``RoomServer/operationsURL``.
    public var listener: (host: String, port: Int)?
    /// The least time between two `roomsChanged` notifications of the `/admin` subscription: a burst of changes
    /// within it sends one snapshot, at its end. Default 100 ms.
    public var snapshotInterval: Duration
    /// The longest time between two `roomsChanged` notifications while anyone subscribes: with no change for that
    /// long, one snapshot goes out anyway, so that outbox depths and round-trip times stay current. `nil`: only
    /// changes send snapshots. Default 5 s.
    public var snapshotRefresh: Duration?
    /// How often the server measures each WebSocket connection's round-trip time with a PING
    /// (``OperationsSnapshot/Participant/rttMilliseconds``, docs/libwebsockets.md#round-trip-probe); `nil` measures
    /// nothing. Default 10 s.
    public var rttProbeInterval: Duration?
    /// How long ``RoomServer/shutdown()`` keeps serving once it has begun, with `/readyz` answering 503 "shutting
    /// down", so that load balancers stop sending new clients before the sockets close. Default 0.
    public var drainPeriod: Duration
    /// How long ``RoomServer/shutdown()`` may take once the drain is over: closing the sockets, waiting for the
    /// handlers still running (cancelled; each at most until its ``RoomServerLimits/handlerTimeout``), releasing the
    /// media and leaving the cluster. What is not done by then is abandoned and logged, and shutdown returns, so it
    /// always ends within ``drainPeriod`` plus this (docs/architecture.md#shutdown). Default 10 s.
    public var shutdownTimeout: Duration
    /// The application's own plain-HTTP routes on the server's port, beside the server's (``HTTPRoute``,
    /// docs/operations.md#application-routes); never on the second listener (``listener``). ``RoomServer/start(_:)``
    /// throws ``RouteRefused`` for one on a path of the server's own (``RoomServer/reservedPaths``), one with a
    /// path it could never match, or a method and path given twice. Default: none.
    public var routes: [HTTPRoute]
    /// How long a route's handler may take before its request is answered 503 with `Retry-After: 1` and its task
    /// is cancelled (the server's own routes answer at once). Default 10 s.
    public var routeTimeout: Duration

    /// Creates the operations settings; every argument has its default.
    public init(
        adminToken: String? = nil,
        metricsExposition: (@Sendable () -> String)? = nil,
        listener: (host: String, port: Int)? = nil,
        snapshotInterval: Duration = .milliseconds(100),
        snapshotRefresh: Duration? = .seconds(5),
        rttProbeInterval: Duration? = .seconds(10),
        drainPeriod: Duration = .zero,
        adminGuessLimit: AdminGuessLimit = .init(),
        adminSessionLifetime: Duration = .seconds(900),
        shutdownTimeout: Duration = .seconds(10),
        routes: [HTTPRoute] = [],
        routeTimeout: Duration = .seconds(10)
    ) {
        self.adminToken = adminToken
        self.adminGuessLimit = adminGuessLimit
        self.adminSessionLifetime = adminSessionLifetime
        self.metricsExposition = metricsExposition
        self.listener = listener
        self.snapshotInterval = snapshotInterval
        self.snapshotRefresh = snapshotRefresh
        self.rttProbeInterval = rttProbeInterval
        self.drainPeriod = drainPeriod
        self.shutdownTimeout = shutdownTimeout
        self.routes = routes
        self.routeTimeout = routeTimeout
    }
}
