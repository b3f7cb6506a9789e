/// The limits of docs/wire-protocol.md#limits that a ``RoomServer`` enforces itself. Each refusal is a clear error,
/// never a crash.
public struct RoomServerLimits: Sendable, Hashable {
    /// Rooms that may exist at once; a join that would create one more gets 204 naming the limit. `nil`: no limit.
    public var maxRooms: Int?
    /// Participants per room (joins in progress count); one more gets 201 naming the limit. `nil`: no limit.
    public var maxParticipantsPerRoom: Int?
    /// Client ICE candidates a session may have queued for endpoints that do not exist yet; one more gets 303.
    public var maxQueuedCandidates: Int
    /// Room requests one session may send per second; more get -32000 "rate limited", and a session that sends
    /// twice as many in one second is disconnected with 1008. `nil` (the default): no limit.
    public var maxRequestsPerSecond: Int?
    /// Notifications waiting to be sent to one session; a session that falls further behind is closed with 1008,
    /// so one slow client never holds up its room (docs/architecture.md#backpressure).
    public var maxQueuedNotifications: Int
    /// Trees that may exist at once (`/tree`); one more gets Tree error 2 naming the limit. `nil`: no limit.
    public var maxTrees: Int?
    /// Sinks per tree (additions in progress count); one more gets Tree error 2 naming the limit. `nil`: no limit.
    public var maxSinksPerTree: Int?
    /// Open WebSocket connections from one IP address; one more upgrade is refused with HTTP 429
    /// (docs/wire-protocol.md#limits). `nil` (the default): no limit.
    public var maxConnectionsPerIP: Int?
    /// Time an accepted socket has to complete its WebSocket upgrade before it is dropped
    /// (docs/wire-protocol.md#limits: slowloris protection). Default 5 s.
    public var handshakeTimeout: Duration
    /// Requests and notifications one connection may have running at once; past that the server stops reading
    /// from it until one finishes (backpressure). Default 64.
    public var maxInFlightPerConnection: Int
    /// How long a request's handler (a media backend call included) may run before it is cancelled and the
    /// request answered with -32001 "handler timed out". `nil`: no deadline. Default 30 s.
    public var handlerTimeout: Duration?
    /// The largest chat message, as the UTF-8 length of the `message` of `sendMessage` or `sendPrivateMessage`; a
    /// bigger one gets 999 naming the limit and reaches no one (docs/wire-protocol.md#limits). Default 8 KiB.
    public var maxChatMessageBytes: Int
    /// The chat fan-out one session may cause per second (docs/wire-protocol.md#limits): a `sendMessage` costs its
    /// notification's bytes times its recipients (the sender and every other member, on every node of a cluster), a
    /// `sendPrivateMessage` its notification's bytes. Once the session's current one-second window holds this
    /// much, its chat gets -32000 "rate limited" until the window ends (the message that crosses the budget still
    /// goes), and nobody else is touched: so one member can never fill the others' outbound queues. `nil`: no
    /// limit. Default 1 MiB.
    public var maxBroadcastBytesPerSecond: Int?
    /// Requests in one JSON-RPC batch; a longer batch is refused whole with one -32600 naming the limit, none of it
    /// run (`JSONRPCServer.Configuration.maxBatchLength`). Default 100.
    public var maxBatchLength: Int
    /// Bytes of remembered responses one session may hold for duplicate detection (docs/wire-protocol.md#dedupe);
    /// past it the oldest are forgotten (`JSONRPCServer.Configuration.maxRememberedBytesPerSession`). Default 1 MiB.
    public var maxRememberedBytesPerSession: Int
    /// Bytes of remembered responses all sessions together may hold; past it a response is sent but not remembered
    /// (`JSONRPCServer.Configuration.maxRememberedBytesPerServer`). Default 64 MiB.
    public var maxRememberedBytesPerServer: Int
    /// Bytes of notifications one session may keep handed and not released (not yet acknowledged by a client that
    /// counts, not yet written for one that does not; docs/wire-protocol.md#delivery); past it the session ends
    /// with close 4410 and its client starts again (`JSONRPCServer.Configuration.maxUnacknowledgedBytes`).
    /// Default 4 MiB.
    public var maxUnacknowledgedBytes: Int

    /// Creates limits; every argument has its default.
    public init(maxRooms: Int? = nil, maxParticipantsPerRoom: Int? = nil, maxQueuedCandidates: Int = 200,
                maxQueuedNotifications: Int = 1000, maxRequestsPerSecond: Int? = nil, maxTrees: Int? = nil,
                maxSinksPerTree: Int? = nil, maxConnectionsPerIP: Int? = nil, handshakeTimeout: Duration = .seconds(5),
                maxInFlightPerConnection: Int = 64, handlerTimeout: Duration? = .seconds(30),
                maxChatMessageBytes: Int = 8 * 1024, maxBroadcastBytesPerSecond: Int? = 1 << 20,
                maxBatchLength: Int = 100, maxRememberedBytesPerSession: Int = 1 << 20,
                maxRememberedBytesPerServer: Int = 64 << 20, maxUnacknowledgedBytes: Int = 4 << 20) {
        self.maxRooms = maxRooms
        self.maxParticipantsPerRoom = maxParticipantsPerRoom
        self.maxQueuedCandidates = maxQueuedCandidates
        self.maxQueuedNotifications = maxQueuedNotifications
        self.maxRequestsPerSecond = maxRequestsPerSecond
        self.maxTrees = maxTrees
        self.maxSinksPerTree = maxSinksPerTree
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.handshakeTimeout = handshakeTimeout
        self.maxInFlightPerConnection = maxInFlightPerConnection
        self.handlerTimeout = handlerTimeout
        self.maxChatMessageBytes = maxChatMessageBytes
        self.maxBroadcastBytesPerSecond = maxBroadcastBytesPerSecond
        self.maxBatchLength = maxBatchLength
        self.maxRememberedBytesPerSession = maxRememberedBytesPerSession
        self.maxRememberedBytesPerServer = maxRememberedBytesPerServer
        self.maxUnacknowledgedBytes = maxUnacknowledgedBytes
    }
}
