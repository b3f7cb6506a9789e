import Foundation
public import JSONRPC
import RoomClusterCore
import SignalingSupport

/// The live view of the rooms for operators (docs/operations.md): ``operationsSnapshot()``, and the `/admin`
/// WebSocket subscription behind the admin token (``OperationsConfiguration/adminToken``).
extension RoomServer {
    /// The path of the admin subscription (docs/operations.md#admin-subscription). Its upgrade needs the admin token
    /// as `Authorization: Bearer`, or the dashboard's session cookie from the dashboard's own origin (refused with
    /// HTTP 401, 403 or 429 otherwise, 404 when no admin token is configured).
    public static let adminPath = "/admin"

    /// The JSON-RPC methods of the admin subscription (docs/operations.md#admin-subscription).
    public enum AdminMethod: String, Sendable, CaseIterable {
        /// Answers the current ``OperationsSnapshot`` and subscribes the session: after each change of the rooms
        /// it gets a `roomsChanged` notification whose params are a fresh snapshot, at most one per
        /// ``OperationsConfiguration/snapshotInterval``. Subscribing again changes nothing.
        case subscribeRooms
        /// Ends the subscription (closing the socket ends it too). Answers `null`.
        case unsubscribeRooms
        /// Answers the current ``OperationsSnapshot`` without subscribing.
        case getRooms
    }

    /// The notification of the admin subscription that carries a fresh ``OperationsSnapshot`` as its params.
    public static let roomsChangedNotification = AdminFeed.notification

    /// The rooms as operators see them, taken now in one piece under the registry's lock: every room, its
    /// participants with their streams, subscriptions and the media flow on each, outbox depth and round-trip
    /// time, and totals; then, outside that lock, the media server of each room (``MediaBackend/mediaServer(of:)``)
    /// and, with a cluster, the other nodes' rooms and participants as last read from Redis
    /// (docs/operations.md#rooms-cluster). Never a session id. `GET /rooms` serves it as JSON
    /// (docs/operations.md#rooms).
    public func operationsSnapshot() -> OperationsSnapshot {
        Self.operationsSnapshot(registry, media: media, node: cluster?.nodeID, view: clusterView)
    }

    /// The snapshot of `registry`, each room with the media server `media` says serves it, and with `view` what
    /// the other nodes of the cluster hold (docs/operations.md#rooms-cluster). The backend is asked after the
    /// registry's lock is released: it is application code, and may take a lock of its own.
    static func operationsSnapshot(_ registry: RoomRegistry, media: any MediaBackend, node: String?,
                                   view: ClusterRoomsView?) -> OperationsSnapshot {
        var snapshot = registry.operationsSnapshot(node: node, generatedAt: timestamp())
        for index in snapshot.rooms.indices {
            snapshot.rooms[index].mediaServer = media.mediaServer(of: .room(snapshot.rooms[index].name))
        }
        return view?.merged(into: snapshot) ?? snapshot
    }

    /// Serves one admin connection until it ends: what ``start(_:)`` does for an upgrade to ``adminPath`` that
    /// carries the admin token. Checking who is on the other end is the caller's job here. The session ends with
    /// the connection, and its subscription with it.
    public func serveAdmin(_ connection: any MessageConnection) async {
        await adminRPC.serve(connection)
    }

    /// Whether `token` is the configured admin token; always `false` when none is configured. Compares in
    /// constant time for tokens of one length.
    func isAdminToken(_ token: String?) -> Bool {
        guard let expected = configuration.operations.adminToken, let token else { return false }
        return SecureID.constantTimeEquals(token, expected)
    }

    /// The admin subscription's own JSON-RPC server: plain JSON-RPC 2.0 (no Kurento session ids, so no session id
    /// ever reaches an admin page), and a session ends with its socket (no reconnection window): the page
    /// subscribes again on its new socket. Its connections stay out of the metrics, which count clients
    /// (docs/operations.md#metrics).
    static func adminRPCConfiguration(_ configuration: Configuration) -> JSONRPCServer.Configuration {
        JSONRPCServer.Configuration(conventions: .plain, reconnectionWindow: .zero, logger: configuration.logger,
                                    clock: configuration.clock, maxInFlightPerConnection: 4, metrics: .disabled)
    }

    func registerAdminMethods() {
        adminRPC.register(AdminMethod.subscribeRooms.rawValue) { [weak self] _, context in
            guard let self else { throw RPCErrorObject.internalError("the room server is gone") }
            return try JSONValue(encoding: self.adminFeed.subscribe(context.session))
        }
        adminRPC.register(AdminMethod.unsubscribeRooms.rawValue) { [weak self] _, context in
            self?.adminFeed.unsubscribe(context.session)
            return nil
        }
        adminRPC.register(AdminMethod.getRooms.rawValue) { [weak self] _, _ in
            guard let self else { throw RPCErrorObject.internalError("the room server is gone") }
            return try JSONValue(encoding: self.operationsSnapshot())
        }
        adminRPC.whenSessionEnds { [weak self] session in
            self?.adminFeed.unsubscribe(session)
        }
    }

    /// Now, in UTC, RFC 3339 with milliseconds (``OperationsSnapshot/generatedAt``).
    static func timestamp() -> String {
        Date.now.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
