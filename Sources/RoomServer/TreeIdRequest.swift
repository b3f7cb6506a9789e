public import JSONRPCWebSocket

/// What ``RoomServer/Configuration/authorizeTreeId`` sees (docs/wire-protocol.md#tree): a `createTree` naming the
/// tree's id itself, and how the caller's connection was opened (a bearer token, the Origin). Without that hook a
/// client-chosen id is refused, so that nobody can take a well-known id (`townhall`) before its real owner.
public struct TreeIdRequest: Sendable, Hashable {
    /// The `treeId` of `createTree`, already checked against the naming rules (no control, format or bidi
    /// characters, at most 256 bytes).
    public var treeId: String
    /// The WebSocket upgrade that opened the caller's current connection; `nil` when the connection is not a
    /// WebSocket (e.g. a `LocalMessageConnection`).
    public var upgrade: UpgradeRequest?

    /// Creates a request.
    public init(treeId: String, upgrade: UpgradeRequest? = nil) {
        self.treeId = treeId
        self.upgrade = upgrade
    }

    /// The bearer token of the upgrade (`UpgradeRequest.bearerToken`).
    public var bearerToken: String? { upgrade?.bearerToken }
}
