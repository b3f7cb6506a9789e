/// One trickled ICE candidate: the params of the `onIceCandidate` request (client → server) and of the
/// `iceCandidate` notification (server → client), which carry the same four fields
/// (docs/wire-protocol.md#room-notifications).
///
/// `endpointName` names the endpoint, not the stream: the owner's own name means its publisher endpoint, another
/// user's name (without `_webcam`) means the owner's subscription to that user. ``RoomEndpoint`` resolves it.
public struct RoomIceCandidate: Codable, Sendable, Hashable {
    /// The endpoint the candidate belongs to (a user name; see ``RoomEndpoint``).
    public var endpointName: String
    /// The candidate line (`candidate:…`). NBMRoomClient sends `""` when it has none.
    public var candidate: String
    /// The media stream identification tag (`""` when the client has none).
    public var sdpMid: String
    /// The index of the m-line the candidate belongs to.
    public var sdpMLineIndex: Int

    /// Creates a candidate message.
    public init(endpointName: String, candidate: String, sdpMid: String, sdpMLineIndex: Int) {
        self.endpointName = endpointName
        self.candidate = candidate
        self.sdpMid = sdpMid
        self.sdpMLineIndex = sdpMLineIndex
    }
}
