/// The client → server methods of the Kurento Room protocol (docs/wire-protocol.md#room), plus our extension
/// ``sendPrivateMessage`` (docs/wire-protocol.md#compatibility). The raw values are the wire names; nothing outside
/// `RoomProtocol` and `Schemas/` spells them.
public enum RoomMethod: String, Sendable, Hashable, CaseIterable {
    /// Joins (and on first join creates) a room: ``JoinRoomParams`` → ``JoinRoomResult``.
    case joinRoom
    /// Publishes the caller's webcam stream: ``PublishVideoParams`` → ``SDPAnswerResult``.
    case publishVideo
    /// Stops publishing; no params, empty result.
    case unpublishVideo
    /// Subscribes to another participant's stream: ``ReceiveVideoFromParams`` → ``SDPAnswerResult``.
    case receiveVideoFrom
    /// Ends a subscription: ``UnsubscribeFromVideoParams``, empty result (the doc's `sdpAnswer` is wrong).
    case unsubscribeFromVideo
    /// Trickles one client ICE candidate: ``RoomIceCandidate``, empty result.
    case onIceCandidate
    /// Leaves the room; no params, empty result, and then the server closes the socket.
    case leaveRoom
    /// Sends a chat message to the whole room, sender included: ``SendMessageParams``, empty result.
    case sendMessage
    /// Application-defined request with free-form params and result.
    case customRequest
    /// Extension: a message to one participant only (``SendPrivateMessageParams``), empty result.
    /// A stock Kurento server never answers unknown methods, so clients must only use it against our server.
    case sendPrivateMessage

    /// Whether the method is ours rather than Kurento's (docs/wire-protocol.md#compatibility: extensions use new method
    /// names).
    public var isExtension: Bool { self == .sendPrivateMessage }
}
