public import JSONRPC
public import RoomProtocol
public import SDP

/// Something that happened in the room: one per server notification, in wire order, plus the connection's state
/// changes. By the time an event is published, ``RoomClient/peers`` already reflects it
/// (docs/architecture.md#event-streams).
public enum RoomEvent: Sendable, Hashable {
    /// `participantJoined`: a participant entered the room (it publishes nothing yet).
    case participantJoined(Peer)
    /// `participantLeft`: a participant left or was evicted; the peer as it was before it left.
    case participantLeft(Peer)
    /// `participantEvicted`: the local user was evicted from the room (the peers model is now empty).
    case participantEvicted
    /// `participantPublished`: a participant started publishing; the peer with its streams.
    case participantPublished(Peer)
    /// `participantUnpublished`: a participant stopped publishing; the peer without the stream.
    case participantUnpublished(Peer)
    /// `iceCandidate`: a server candidate for one of the local user's endpoints. `endpoint` says which: the
    /// publisher endpoint, or the subscription to another participant's stream.
    case iceCandidate(IceCandidate, endpoint: RoomEndpoint)
    /// `sendMessage`: a chat message to the whole room (the sender gets its own message too).
    case message(String, from: String)
    /// `privateMessage` (extension): a message to the local user only.
    case privateMessage(String, from: String)
    /// `mediaError`: the server's description of a media failure, and the endpoint that failed when the server says
    /// (ours do; docs/wire-protocol.md#media-errors): the server has dropped it. With an
    /// ``RoomClient/Configuration/offerProvider`` the client then publishes again (for ``/RoomProtocol/RoomEndpoint/publisher``)
    /// or subscribes again (for a subscription whose publisher still publishes); without one it publishes
    /// ``renegotiationNeeded(_:)``. A subscription whose publisher stopped is not restored: its
    /// ``participantPublished(_:)`` says when to subscribe again.
    case mediaError(String, endpoint: RoomEndpoint?)
    /// `roomClosed`: the application closed the room (the peers model is now empty).
    case roomClosed(room: String)
    /// A notification outside the Room protocol (e.g. the Kurento demo's `custonNotification`), as received, that no
    /// other consumer on the connection claimed: the `sharedObject.*` notifications of a `SharedObjectClient` on
    /// ``RoomClient/jsonRPCClient`` go to it, not here (``/JSONRPC/JSONRPCClient/claimNotifications(inNamespace:by:_:)``).
    case customNotification(method: String, params: JSONValue?)
    /// A Room notification whose params do not have the shape of docs/wire-protocol.md#room-notifications; it changed
    /// nothing.
    case invalidNotification(RoomDecodingError)
    /// The connection's state changed. After a reconnect into a fresh session (the server answered 40007), the
    /// client rejoins the room and reports ``/JSONRPC/ConnectionState/rejoined`` here.
    case connectionStateChanged(ConnectionState)
    /// After a rejoin, the media the local user had is gone on the server: these endpoints need fresh offers
    /// (``RoomClient/publishVideo(sdpOffer:loopback:)`` for the publisher, ``RoomClient/receiveVideo(from:sdpOffer:streamId:)``
    /// for each subscription). Not sent when ``RoomClient/Configuration/offerProvider`` does it automatically.
    case renegotiationNeeded([RoomEndpoint])
    /// Recovering after a reconnect failed: the rejoin was refused, or renegotiating an endpoint failed.
    case recoveryFailed(String)
    /// A negotiation the client started on its own through its PeerManager failed: a subscription of
    /// ``RoomClient/subscribeToEveryone(using:)`` to a participant that published later. The description says why.
    case mediaNegotiationFailed(RoomEndpoint, String)
}
