public import JSONRPCWebSocket

/// What the join authorizer of ``RoomServer/Configuration`` sees (docs/architecture.md#identity): who wants to join
/// which room, and how the caller's connection was opened (a bearer token in `Authorization` or `?access_token=`, the
/// Origin).
public struct RoomJoinAttempt: Sendable, Hashable {
    /// The `user` of `joinRoom`, already checked against the naming rules, in its NFKC form
    /// (docs/wire-protocol.md#room-naming).
    public var user: String
    /// The `room` of `joinRoom`, checked and in its NFKC form too.
    public var room: String
    /// The WebSocket upgrade that opened the caller's current connection (path, query, captured headers);
    /// `nil` when the connection is not a WebSocket (e.g. a `LocalMessageConnection`).
    public var upgrade: UpgradeRequest?

    /// Creates an attempt.
    public init(user: String, room: String, upgrade: UpgradeRequest? = nil) {
        self.user = user
        self.room = room
        self.upgrade = upgrade
    }

    /// The bearer token of the upgrade: `Authorization: Bearer …`, else `?access_token=` (for browsers, which
    /// cannot set headers on a WebSocket); `UpgradeRequest.bearerToken`.
    public var bearerToken: String? { upgrade?.bearerToken }
}
