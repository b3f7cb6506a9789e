public import JSONRPC
public import JSONRPCWebSocket
public import Logging
public import RoomClusterCore
public import SharedObjectServer
public import SignalingSupport

extension RoomServer {
    /// What a ``RoomServer`` is made of: where it listens, its media backend, limits, hooks and clock.
    public struct Configuration: Sendable {
        /// The address ``RoomServer/start(_:)`` listens on. Default `127.0.0.1`.
        public var host: String
        /// The TCP port; 0 picks a free one (read it back from ``RoomServer/url``). Default 0.
        public var port: Int
        /// The certificate and key files (PEM) for `wss`; `nil` (the default) serves plain `ws`.
        public var tls: (certificateFile: String, privateKeyFile: String)?
        /// Where endpoints and SDP answers come from.
        public var media: any MediaBackend
        /// Rooms, participants, queued candidates and notifications (docs/wire-protocol.md#limits).
        public var limits: RoomServerLimits
        /// How long a participant whose socket dropped stays in its room, waiting for `connect{sessionId}`
        /// (docs/architecture.md#defaults). When it ends, the participant is evicted and the others get
        /// `participantLeft`. Default 10 s.
        public var reconnectionWindow: Duration
        /// The largest inbound message, in bytes (docs/architecture.md#defaults); bigger ones close the socket
        /// with 1009. Default 1 MiB.
        public var maxMessageSize: Int
        /// How long a SockJS session (docs/wire-protocol.md#sockjs) may go without a frame from the server before
        /// it sends a heartbeat frame `h`, on ``clock``. Default 25 s, as SockJS and Spring.
        public var sockJSHeartbeatInterval: Duration
        /// Decides whether a join may proceed (docs/architecture.md#identity): `false` answers Room error 401
        /// "unauthorized"; a thrown `RoomError` answers with that error instead (e.g. 401 with a message that says
        /// why), anything else thrown as `false`. It runs after the name is reserved, so it may take its time.
        /// Default: everyone may join.
        public var authorizeJoin: @Sendable (RoomJoinAttempt) async throws -> Bool
        /// Decides on each WebSocket upgrade to ``RoomServer/paths`` and the Tree path (docs/architecture.md#identity:
        /// a bearer token in the `Authorization` header or `?access_token=`, an Origin allow-list). It runs off the
        /// transport's service thread, so it may take its time (a token service, a database) without holding up
        /// anyone else, within ``RoomServerLimits/handshakeTimeout``. A refusal such as
        /// `.reject(status: 401, reason: "unauthorized")` closes the new connection with 4401 (403: 4403; see
        /// `UpgradeDecision.closeCode(forStatus:)`) before any request of it is served. Default: every upgrade
        /// is accepted.
        public var authorizeUpgrade: (@Sendable (UpgradeRequest) async -> UpgradeDecision)?
        /// A cheap, synchronous first look at each upgrade to ``RoomServer/paths`` and the Tree paths, answered with an
        /// HTTP status before the handshake: `.reject(status: 401, reason: "unauthorized")` answers HTTP 401 (403:
        /// HTTP 403), which a client takes as final without the round trip of a handshake (a missing token, a
        /// token of the wrong form, an Origin not allowed). It runs after the server's own checks (the per-address
        /// cap's 429, the 404 of an unknown path; not on the admin path) and before ``authorizeUpgrade``, on the
        /// transport's service thread, where every connection is served: it must be fast, must not block and must
        /// not call back into the server. Anything slower (a signature, a database, a token service) belongs in
        /// ``authorizeUpgrade``. `nil` (the default): every upgrade the server's checks let through goes on.
        public var upgradeFilter: (@Sendable (UpgradeRequest) -> UpgradeDecision)?
        /// Decides whether a `createTree` may name its tree itself (docs/wire-protocol.md#tree): it sees the id and
        /// the caller's upgrade request, and a refusal answers Tree error 2. `nil` (the default): client-chosen ids
        /// are refused, and a tree's id is always the server's (a `createTree` without `treeId`), so that nobody can
        /// take a well-known id before its owner. `{ _ in true }` lets anyone choose, first come first served, as
        /// Kurento did (`room-server --allow-client-tree-ids`; stock KurentoTree.js always sends its own id).
        public var authorizeTreeId: (@Sendable (TreeIdRequest) async -> Bool)?
        /// Who an upgrade speaks for (docs/architecture.md#identity): each session is bound to the principal of the
        /// upgrade that opened it, and `connect{sessionId}` from an upgrade with another principal is refused with
        /// 40007 (docs/wire-protocol.md#sessions), so a session id alone is no key to someone's identity. Return what
        /// your authorizers decided on (a user id for a token that rotates); `nil` for an anonymous upgrade. It runs
        /// on the transport's service thread once per connection: it must be quick and must not block. Default: the
        /// upgrade's bearer token (`UpgradeRequest.bearerToken`), so without authentication nothing changes.
        public var sessionPrincipal: @Sendable (UpgradeRequest) -> String?
        /// Answers `customRequest`; `nil` (the default) answers as Kurento does, -1 "Unsupported method". Throw a
        /// `RoomError` or an `RPCErrorObject` to answer with that error; return `nil` for an empty result.
        public var customRequest: (@Sendable (RoomCustomRequest) async throws -> JSONValue?)?
        /// The shared-object extension: store, limits and authorizer; `nil` turns it off (its methods
        /// then answer -32601). `room:R/…` objects are for the members of room R, whatever the authorizer says.
        /// Default: on, in memory.
        public var sharedObjects: SharedObjectService.Configuration?
        /// Several room-server processes serving the same rooms: how this one makes its node of the cluster
        /// (``/RoomClusterCore/ClusterBackplaneConfiguration``). On Redis, add the `RoomCluster` product and set a
        /// `ClusterConfiguration(redis: url, nodeID: "a")`; `nil` (the default): one process, and neither
        /// `RoomCluster` nor hiredis is linked. See docs/cluster.md for what is shared.
        public var cluster: (any ClusterBackplaneConfiguration)?
        /// Health, readiness, the admin live view and metrics over plain HTTP (docs/operations.md). Default: health
        /// and readiness only; the admin routes are off until ``OperationsConfiguration/adminToken`` is set.
        public var operations: OperationsConfiguration
        /// Where the server logs; session ids appear only redacted. Default: discards everything.
        public var logger: Logger
        /// The clock of the reconnection window and the JSON-RPC timers.
        public var clock: any SignalingClock
        /// Where the server's metrics go (docs/operations.md#metrics): its JSON-RPC servers' (connections,
        /// sessions, requests, notifications, closes), the room gauges, and with a cluster the Redis round trips and
        /// cluster events. Default: the factory the process bootstrapped when this configuration was made (none:
        /// no metrics, no cost).
        public var metrics: SignalingMetrics

        /// Creates a configuration; every argument has its default (media: ``SimulatedMediaBackend``).
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            tls: (certificateFile: String, privateKeyFile: String)? = nil,
            media: any MediaBackend = SimulatedMediaBackend(),
            limits: RoomServerLimits = .init(),
            reconnectionWindow: Duration = .seconds(10),
            maxMessageSize: Int = 1 << 20,
            sockJSHeartbeatInterval: Duration = .seconds(25),
            authorizeJoin: @escaping @Sendable (RoomJoinAttempt) async throws -> Bool = { _ in true },
            authorizeUpgrade: (@Sendable (UpgradeRequest) async -> UpgradeDecision)? = nil,
            upgradeFilter: (@Sendable (UpgradeRequest) -> UpgradeDecision)? = nil,
            authorizeTreeId: (@Sendable (TreeIdRequest) async -> Bool)? = nil,
            sessionPrincipal: @escaping @Sendable (UpgradeRequest) -> String? = { $0.bearerToken },
            customRequest: (@Sendable (RoomCustomRequest) async throws -> JSONValue?)? = nil,
            sharedObjects: SharedObjectService.Configuration? = .init(),
            cluster: (any ClusterBackplaneConfiguration)? = nil,
            operations: OperationsConfiguration = .init(),
            logger: Logger = .disabled(label: "KurentoSignaling.RoomServer"),
            clock: any SignalingClock = SystemClock(),
            metrics: SignalingMetrics = SignalingMetrics()
        ) {
            self.host = host
            self.port = port
            self.tls = tls
            self.media = media
            self.limits = limits
            self.reconnectionWindow = reconnectionWindow
            self.maxMessageSize = maxMessageSize
            self.sockJSHeartbeatInterval = sockJSHeartbeatInterval
            self.authorizeJoin = authorizeJoin
            self.authorizeUpgrade = authorizeUpgrade
            self.upgradeFilter = upgradeFilter
            self.authorizeTreeId = authorizeTreeId
            self.sessionPrincipal = sessionPrincipal
            self.customRequest = customRequest
            self.sharedObjects = sharedObjects
            self.cluster = cluster
            self.operations = operations
            self.logger = logger
            self.clock = clock
            self.metrics = metrics
        }
    }
}
