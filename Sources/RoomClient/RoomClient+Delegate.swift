public import JSONRPC
import Logging
public import RoomProtocol
public import SDP
import SignalingSupport

/// The NBMRoomClientDelegate counterpart (docs/wire-protocol.md#counterparts) for the room's events. Every method has
/// an empty default. Calls arrive on no particular thread, one at a time, in wire order, after the peers model was
/// updated, and never under a lock of the client: a delegate may call the client back. Call results are not delegated:
/// use the async API or the completion closures.
///
/// **Falling behind.** The client does not wait for its delegate: events wait in a buffer of
/// ``/JSONRPCWebSocket/SignalingClientConfiguration/eventBufferLimit`` (1,024). A delegate more than that behind misses the
/// events that do not fit; it then gets ``client(_:didLoseEvents:)`` once, with how many it missed, as soon as it
/// has handled the events before the gap, and goes on with the later ones. A delegate either hears every event or
/// hears of every gap.
public protocol RoomClientDelegate: AnyObject, Sendable {
    /// The connection's state changed.
    func client(_ client: RoomClient, connectionStateChanged state: ConnectionState)
    /// A participant joined the room.
    func client(_ client: RoomClient, participantJoined peer: Peer)
    /// A participant left (or was evicted from) the room.
    func client(_ client: RoomClient, participantLeft peer: Peer)
    /// The local user was evicted.
    func clientWasEvicted(_ client: RoomClient)
    /// A participant started publishing.
    func client(_ client: RoomClient, participantPublished peer: Peer)
    /// A participant stopped publishing.
    func client(_ client: RoomClient, participantUnpublished peer: Peer)
    /// The server sent an ICE candidate for one of the local endpoints.
    func client(_ client: RoomClient, didReceive candidate: IceCandidate, for endpoint: RoomEndpoint)
    /// A chat message arrived (also the local user's own).
    func client(_ client: RoomClient, didReceiveMessage message: String, from user: String)
    /// A private message arrived.
    func client(_ client: RoomClient, didReceivePrivateMessage message: String, from user: String)
    /// The server reported a media error.
    func client(_ client: RoomClient, mediaErrorOccurred description: String, endpoint: RoomEndpoint?)
    /// The room was closed.
    func client(_ client: RoomClient, roomWasClosed room: String)
    /// Any event, including the ones above and notifications outside the Room protocol.
    func client(_ client: RoomClient, didReceive event: RoomEvent)
    /// The delegate fell more than ``/JSONRPCWebSocket/SignalingClientConfiguration/eventBufferLimit`` events behind and
    /// missed `count` events right after the last one it was given. Called once per gap, as soon as the delegate
    /// has handled the events before it; later events are delivered as usual.
    /// Resynchronize from the client's state, which already includes the missed events: ``RoomClient/peers``,
    /// ``RoomClient/isJoined``, ``RoomClient/connectionState``. (Missed chat messages and ICE candidates are gone.)
    func client(_ client: RoomClient, didLoseEvents count: Int)
}

/// Empty defaults: a delegate implements only what it needs.
extension RoomClientDelegate {
    public func client(_ client: RoomClient, connectionStateChanged state: ConnectionState) {}
    public func client(_ client: RoomClient, participantJoined peer: Peer) {}
    public func client(_ client: RoomClient, participantLeft peer: Peer) {}
    public func clientWasEvicted(_ client: RoomClient) {}
    public func client(_ client: RoomClient, participantPublished peer: Peer) {}
    public func client(_ client: RoomClient, participantUnpublished peer: Peer) {}
    public func client(_ client: RoomClient, didReceive candidate: IceCandidate, for endpoint: RoomEndpoint) {}
    public func client(_ client: RoomClient, didReceiveMessage message: String, from user: String) {}
    public func client(_ client: RoomClient, didReceivePrivateMessage message: String, from user: String) {}
    public func client(_ client: RoomClient, mediaErrorOccurred description: String, endpoint: RoomEndpoint?) {}
    public func client(_ client: RoomClient, roomWasClosed room: String) {}
    public func client(_ client: RoomClient, didReceive event: RoomEvent) {}
    public func client(_ client: RoomClient, didLoseEvents count: Int) {}
}

extension RoomClient {
    /// The delegate, held weakly. Setting it subscribes it to ``events`` from that moment on.
    public var delegate: (any RoomClientDelegate)? {
        get { delegateFeeder.delegate }
        set {
            delegateFeeder.set(newValue, of: self, events: eventHub, logger: logger,
                               deliver: { client, event, delegate in client.deliver(event, to: delegate) },
                               lost: { client, count, delegate in delegate.client(client, didLoseEvents: count) })
        }
    }

    private func deliver(_ event: RoomEvent, to delegate: any RoomClientDelegate) {
        switch event {
        case .connectionStateChanged(let state): delegate.client(self, connectionStateChanged: state)
        case .participantJoined(let peer): delegate.client(self, participantJoined: peer)
        case .participantLeft(let peer): delegate.client(self, participantLeft: peer)
        case .participantEvicted: delegate.clientWasEvicted(self)
        case .participantPublished(let peer): delegate.client(self, participantPublished: peer)
        case .participantUnpublished(let peer): delegate.client(self, participantUnpublished: peer)
        case .iceCandidate(let candidate, let endpoint): delegate.client(self, didReceive: candidate, for: endpoint)
        case .message(let text, let user): delegate.client(self, didReceiveMessage: text, from: user)
        case .privateMessage(let text, let user): delegate.client(self, didReceivePrivateMessage: text, from: user)
        case .mediaError(let description, let endpoint):
            delegate.client(self, mediaErrorOccurred: description, endpoint: endpoint)
        case .roomClosed(let room): delegate.client(self, roomWasClosed: room)
        case .customNotification, .invalidNotification, .renegotiationNeeded, .recoveryFailed,
             .mediaNegotiationFailed: break
        }
        delegate.client(self, didReceive: event)
    }
}
