public import JSONRPC
public import RoomProtocol
public import SDP

/// Something the Tree server told a ``TreeClient``, or a change of its connection.
public enum TreeEvent: Sendable, Hashable {
    /// A server ICE candidate for `endpoint` of tree `tree`: ``/RoomProtocol/TreeEndpoint/source`` when the
    /// notification had no `sinkId`, else that sink.
    case iceCandidate(IceCandidate, tree: String, endpoint: TreeEndpoint)
    /// `mediaError` (ours; docs/wire-protocol.md#media-errors): `endpoint` of tree `tree` failed at the media server
    /// and the server dropped it (a failed source takes the tree's sinks with it). Set the source again, or add a new
    /// sink.
    case mediaError(String, tree: String, endpoint: TreeEndpoint)
    /// A notification outside the Tree protocol, as received, that no other consumer on the connection claimed
    /// (``/JSONRPC/JSONRPCClient/claimNotifications(inNamespace:by:_:)``).
    case customNotification(method: String, params: JSONValue?)
    /// A Tree notification with the wrong shape (it is not applied).
    case invalidNotification(RoomDecodingError)
    /// The connection's state changed.
    case connectionStateChanged(ConnectionState)
}
