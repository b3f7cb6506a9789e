import CoreMetrics
public import JSONRPC
import JSONRPCWebSocket
import Logging
public import RoomClusterCore
import RoomProtocol
public import SharedObjectServer
import SignalingSupport

/// An embeddable Kurento Room server (docs/wire-protocol.md#room, docs/wire-protocol.md#compatibility and
/// docs/architecture.md#identity): rooms, participants, identity, limits, and a ``MediaBackend`` for the endpoints.
///
/// Serve connections yourself with ``serve(_:)`` (any ``/JSONRPC/MessageConnection``, e.g. a
/// ``/JSONRPC/LocalMessageConnection`` in tests), or let ``start(_:)`` listen on a WebSocket.
///
/// ```swift
/// let server = RoomServer(configuration: .init(media: myBackend))
/// Task { await server.serve(connection) }
/// for try await event in server.events { print(event) }
/// ```
///
/// Identity comes from the session: once joined, every `user`, `sender`, `endpointName` and private-message
/// target is checked against the caller's participant and room. When a session ends (its reconnection window
/// ran out, or `closeSession`), its participant is evicted and the others get `participantLeft`.
public final class RoomServer: Sendable {
    /// The settings this server was made with.
    public let configuration: Configuration
    let rpc: JSONRPCServer
    let registry: RoomRegistry
    let eventHub = Broadcast<RoomServerEvent>()
    let rateLimiter: RequestRateLimiter
    /// Each session's chat fan-out in its current second (``RoomServerLimits/maxBroadcastBytesPerSecond``).
    let broadcastBudget: WindowedRateCounter
    let listener: RoomListener?
    /// Tree (docs/wire-protocol.md#tree): its own JSON-RPC server (router and sessions) behind ``treePath``.
    let treeRPC: JSONRPCServer
    let treeRegistry: TreeRegistry
    /// The shared-object service installed on this server (``Configuration/sharedObjects``), if on.
    public let sharedObjects: SharedObjectService?
    var logger: Logger { configuration.logger }
    /// The configured backend, called off the event loop (``OffLoopMediaBackend``).
    let media: any MediaBackend
    /// This process's node of the cluster (``Configuration/cluster``), if any: with the `RoomCluster` product's
    /// `ClusterConfiguration`, a `ClusterNode` (`server.cluster as? ClusterNode` reaches its Redis-only calls).
    public let cluster: (any ClusterBackplane)?
    /// With a cluster: the other nodes' participants, for the operations snapshot (``ClusterRoomsView``).
    let clusterView: ClusterRoomsView?
    /// The `/admin` subscription (docs/operations.md#admin-subscription): its own JSON-RPC server behind ``adminPath``.
    let adminRPC: JSONRPCServer
    let adminFeed: AdminFeed
    /// Wrong admin tokens per address, and the dashboard's login sessions (docs/operations.md#the-admin-token).
    let adminGuard: AdminGuard
    /// Readiness and the second plain-HTTP listener (docs/operations.md).
    let operations: OperationsState
    /// `signaling_closes_total{reason="rate_limit"}`, when metrics are on (docs/operations.md#metrics).
    let rateLimitCloses: Counter?

    /// Creates a server that serves the connections given to ``serve(_:)``.
    public convenience init(configuration: Configuration) {
        self.init(configuration: configuration, listener: nil)
    }

    init(configuration: Configuration, listener: RoomListener?) {
        self.configuration = configuration
        self.listener = listener
        let media = OffLoopMediaBackend(backend: configuration.media)
        self.media = media
        let principal = configuration.sessionPrincipal
        var rpcConfiguration = JSONRPCServer.Configuration(
            reconnectionWindow: configuration.reconnectionWindow, logger: configuration.logger,
            clock: configuration.clock, maxInFlightPerConnection: configuration.limits.maxInFlightPerConnection,
            handlerTimeout: configuration.limits.handlerTimeout, metrics: configuration.metrics,
            maxRememberedBytesPerSession: configuration.limits.maxRememberedBytesPerSession,
            maxRememberedBytesPerServer: configuration.limits.maxRememberedBytesPerServer,
            maxBatchLength: configuration.limits.maxBatchLength,
            maxUnacknowledgedBytes: configuration.limits.maxUnacknowledgedBytes,
            principal: { connection in (connection as? WebSocketMessageConnection)?.webSocket.request.flatMap(principal) },
            advertised: Self.advertised(.room, configuration))
        rpc = JSONRPCServer(configuration: rpcConfiguration)
        let metrics = configuration.metrics
        cluster = configuration.cluster?.makeBackplane(ClusterBackplaneContext(metricsFactory: metrics.factory))
        let clusterView = cluster.map { ClusterRoomsView(store: $0.makeSnapshotStore()) }
        self.clusterView = clusterView
        rateLimitCloses = metrics.closeCounter(.rateLimit)
        let registry = RoomRegistry(limits: configuration.limits, events: eventHub, cluster: cluster,
                                    gauges: RoomGauges(metrics))
        self.registry = registry
        rpcConfiguration.advertised = Self.advertised(.tree, configuration)
        treeRPC = JSONRPCServer(configuration: rpcConfiguration)
        treeRegistry = TreeRegistry(limits: configuration.limits)
        operations = OperationsState(clustered: cluster != nil)
        adminRPC = JSONRPCServer(configuration: Self.adminRPCConfiguration(configuration))
        adminGuard = AdminGuard(limit: configuration.operations.adminGuessLimit,
                                sessionLifetime: configuration.operations.adminSessionLifetime,
                                clock: configuration.clock)
        let node = cluster?.nodeID
        let adminFeed = AdminFeed(interval: configuration.operations.snapshotInterval,
                                  refresh: configuration.operations.snapshotRefresh, clock: configuration.clock) {
            Self.operationsSnapshot(registry, media: media, node: node, view: clusterView)
        }
        self.adminFeed = adminFeed
        registry.changes.observe { [weak adminFeed] in adminFeed?.changed() }
        rateLimiter = RequestRateLimiter(limit: configuration.limits.maxRequestsPerSecond, clock: configuration.clock)
        broadcastBudget = WindowedRateCounter(limit: configuration.limits.maxBroadcastBytesPerSecond,
                                              clock: configuration.clock)
        let clusterNode = cluster
        sharedObjects = configuration.sharedObjects.map { objects in
            var objects = objects
            // With a cluster, the cluster's Redis sequences the shared objects of every node.
            if let clusterNode { objects.cluster = ClusterSharedObjects(node: clusterNode) }
            return Self.sharedObjectService(objects, registry: registry)
        }
        sharedObjects?.install(on: rpc)
        // Room handlers run where the connection is read (no thread hop per request); the application code they
        // call (media backend, authorizer, custom requests, shared-object store) runs off that thread.
        for method in RoomMethod.allCases where method.isInline {
            rpc.registerInline(method.rawValue) { [weak self] params, context in
                guard let self else { throw RPCErrorObject.internalError("the room server is gone") }
                return try self.dispatchInline(method, params: params, context: context)
            }
        }
        for method in RoomMethod.allCases where !method.isInline {
            rpc.register(method.rawValue, placement: .connectionExecutor) { [weak self] params, context in
                guard let self else { throw RPCErrorObject.internalError("the room server is gone") }
                return try await self.dispatch(method, params: params, context: context)
            }
        }
        rpc.whenSessionEnds { [weak self] session in
            guard let self else { return }
            self.rateLimiter.forget(session.id)
            self.broadcastBudget.forget(session.id)
            Task { await self.evict(session) }
        }
        rpc.whenSessionResumesBeforeReply { [weak self] session in
            // docs/architecture.md#server-sessions: what was queued while the socket was gone goes out on the new one,
            // before the reply.
            self?.registry.outbox(of: session)?.flush()
        }
        registerTreeMethods()
        registerAdminMethods()
        media.attach(mediaEventSink())
        // docs/kurento.md#cluster: one pipeline per room for every node.
        if let cluster, let kurento = configuration.media as? KurentoMediaBackend { kurento.share(with: cluster) }
    }

    /// Serves one connection until it ends (Kurento conventions, docs/wire-protocol.md#kurento-conventions). Call it
    /// from its own task; cancelling that task closes the connection with 1001. A lost connection starts the
    /// reconnection window.
    public func serve(_ connection: any MessageConnection) async {
        await rpc.serve(connection)
    }

    /// Room lifecycle events, from the moment of the call (docs/architecture.md#event-streams: each access is a new
    /// subscriber); with a cluster, other nodes' participants of this node's rooms too
    /// (``RoomServerEvent``).
    public var events: Broadcast<RoomServerEvent>.Subscription { eventHub.subscribe() }

    /// The rooms and their joined participants, in join order: this node's only, with a cluster
    /// (``operationsSnapshot()`` lists every node's).
    public var rooms: [String: [String]] { registry.snapshot }

    /// The number of live sessions, connected or waiting in their reconnection window.
    public var sessionCount: Int { rpc.sessionCount }

    /// Closes `room` for the application: every member gets `roomClosed`, and then its socket is closed with
    /// 1000. Returns `false` for an unknown room.
    /// With a cluster, the room closes on every node.
    @discardableResult
    public func closeRoom(_ room: String) async -> Bool {
        cluster?.post(RoomNotificationMethod.roomClosed.rawValue, room: room, user: "", payload: "")
        return await closeLocalRoom(room)
    }

    /// Closes `room`'s local part (``closeRoom(_:)``, or another node closed it).
    @discardableResult
    func closeLocalRoom(_ room: String) async -> Bool {
        guard let (sessions, departure) = registry.close(room: room) else { return false }
        logger.info("room closed by the application", metadata: ["room": "\(room)"])
        await settle(departure)
        for session in sessions { await revokeRoomObjects(of: session, room: room, reason: "room closed") }
        for session in sessions { await session.close(code: 1000, reason: "room closed") }
        return true
    }

    /// Evicts `user` from `room` for the application: it gets `participantEvicted` and then its socket is closed
    /// with 1000 (so its client does not reconnect); the others get `participantLeft`. Returns `false` when there
    /// is no such participant.
    /// With a cluster, a participant of another node is evicted by its node (this returns `true` once asked).
    @discardableResult
    public func evict(_ user: String, from room: String) async -> Bool {
        if registry.session(of: user, in: room) == nil, let cluster, registry.isRemote(user, in: room) {
            cluster.post(Self.evictKind, room: room, user: user, payload: "")
            return true
        }
        guard let session = registry.session(of: user, in: room),
              let departure = registry.remove(session: session, departure: .evicted, notifyDeparted: true)
        else { return false }
        logger.info("participant evicted by the application", metadata: ["room": "\(room)", "user": "\(user)"])
        await settle(departure)
        await revokeRoomObjects(of: session, room: room, reason: "evicted from the room")
        await session.close(code: 1000, reason: "evicted")
        return true
    }

    /// Evicts the participant of an ended session: the others get `participantLeft`.
    func evict(_ session: ServerSession) async {
        guard let departure = registry.remove(session: session, departure: .evicted) else { return }
        logger.info("participant evicted", metadata: ["session": .string(session.redactedID)])
        await settle(departure)
    }

    /// Sends what a state change queued, then releases the endpoints it ended, the media of the rooms it emptied
    /// and, with a cluster, the names of the participants who left.
    func settle(_ departure: RoomRegistry.Departure) async {
        flush(departure.flush)
        for endpoint in departure.released { await media.release(endpoint) }
        for room in departure.emptied { await media.release(scope: .room(room)) }
        for gone in departure.departed { await releaseName(gone) }
    }

    /// Hands what `outboxes` queued to their connections; returns at once (docs/architecture.md#backpressure: no reply
    /// waits for another member's socket).
    func flush(_ outboxes: [SessionOutbox?]) {
        for outbox in outboxes { outbox?.flush() }
    }
}
