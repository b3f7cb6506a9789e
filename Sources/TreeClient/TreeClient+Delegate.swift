public import JSONRPC
import Logging
public import RoomProtocol
public import SDP
import SignalingSupport

/// The NBMTreeClientDelegate counterpart (docs/wire-protocol.md#tree) for the client's events. Every method has an
/// empty default. Calls arrive on no particular thread, one at a time, in wire order, never under a lock of the client:
/// a delegate may call the client back. Call results are not delegated: use the async API or the completion closures.
///
/// **Falling behind.** The client does not wait for its delegate: events wait in a buffer of
/// ``/JSONRPCWebSocket/SignalingClientConfiguration/eventBufferLimit`` (1,024). A delegate more than that behind misses the
/// events that do not fit; it then gets ``client(_:didLoseEvents:)`` once, with how many it missed, as soon as it
/// has handled the events before the gap, and goes on with the later ones.
public protocol TreeClientDelegate: AnyObject, Sendable {
    /// The connection's state changed.
    func client(_ client: TreeClient, connectionStateChanged state: ConnectionState)
    /// The server sent an ICE candidate for the source or a sink of `tree` (source candidates are ordinary
    /// events here; NBMTreeClient flagged them as errors).
    func client(_ client: TreeClient, didReceive candidate: IceCandidate, for endpoint: TreeEndpoint, tree: String)
    /// Any event, including the ones above.
    func client(_ client: TreeClient, didReceive event: TreeEvent)
    /// The delegate fell more than ``/JSONRPCWebSocket/SignalingClientConfiguration/eventBufferLimit`` events behind and
    /// missed `count` events right after the last one it was given. Called once per gap, as soon as the delegate
    /// has handled the events before it; later events are delivered as usual.
    /// Resynchronize from ``TreeClient/connectionState``; missed ICE candidates are gone.
    func client(_ client: TreeClient, didLoseEvents count: Int)
}

/// Empty defaults: a delegate implements only what it needs.
extension TreeClientDelegate {
    public func client(_ client: TreeClient, connectionStateChanged state: ConnectionState) {}
    public func client(_ client: TreeClient, didReceive candidate: IceCandidate, for endpoint: TreeEndpoint,
                       tree: String) {}
    public func client(_ client: TreeClient, didReceive event: TreeEvent) {}
    public func client(_ client: TreeClient, didLoseEvents count: Int) {}
}

extension TreeClient {
    /// The delegate, held weakly. Setting it subscribes it to ``events`` from that moment on.
    public var delegate: (any TreeClientDelegate)? {
        get { delegateFeeder.delegate }
        set {
            delegateFeeder.set(newValue, of: self, events: eventHub, logger: logger,
                               deliver: { client, event, delegate in client.deliver(event, to: delegate) },
                               lost: { client, count, delegate in delegate.client(client, didLoseEvents: count) })
        }
    }

    private func deliver(_ event: TreeEvent, to delegate: any TreeClientDelegate) {
        switch event {
        case .connectionStateChanged(let state): delegate.client(self, connectionStateChanged: state)
        case .iceCandidate(let candidate, let tree, let endpoint):
            delegate.client(self, didReceive: candidate, for: endpoint, tree: tree)
        case .customNotification, .invalidNotification, .mediaError: break
        }
        delegate.client(self, didReceive: event)
    }
}
