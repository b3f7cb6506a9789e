import JSONRPC
import Logging
import RoomProtocol
import SDP
import SignalingSupport

/// The NBMTreeClientDelegate counterpart (PROTOCOL §5) for the client's events. Every method has an empty default.
/// Calls arrive on no particular thread, one at a time, in wire order. Call results are not delegated: use the
/// async API or the completion closures.
public protocol TreeClientDelegate: AnyObject, Sendable {
    /// The connection's state changed.
    func client(_ client: TreeClient, connectionStateChanged state: ConnectionState)
    /// The server sent an ICE candidate for the source or a sink of `tree` (source candidates are ordinary
    /// events here; NBMTreeClient flagged them as errors).
    func client(_ client: TreeClient, didReceive candidate: IceCandidate, for endpoint: TreeEndpoint, tree: String)
    /// Any event, including the ones above.
    func client(_ client: TreeClient, didReceive event: TreeEvent)
}

/// Empty defaults: a delegate implements only what it needs.
extension TreeClientDelegate {
    public func client(_ client: TreeClient, connectionStateChanged state: ConnectionState) {}
    public func client(_ client: TreeClient, didReceive candidate: IceCandidate, for endpoint: TreeEndpoint,
                       tree: String) {}
    public func client(_ client: TreeClient, didReceive event: TreeEvent) {}
}

extension TreeClient {
    /// The delegate, held weakly. Setting it subscribes it to ``events`` from that moment on.
    public var delegate: (any TreeClientDelegate)? {
        get { delegateFeeder.delegate }
        set {
            delegateFeeder.set(newValue, subscribe: { events }, deliver: { [weak self] event, delegate in
                guard let self else { return false }
                self.deliver(event, to: delegate)
                return true
            }, failed: { [logger] error in logger.error("delegate events ended: \(error)") })
        }
    }

    private func deliver(_ event: TreeEvent, to delegate: any TreeClientDelegate) {
        switch event {
        case .connectionStateChanged(let state): delegate.client(self, connectionStateChanged: state)
        case .iceCandidate(let candidate, let tree, let endpoint):
            delegate.client(self, didReceive: candidate, for: endpoint, tree: tree)
        case .customNotification, .invalidNotification: break
        }
        delegate.client(self, didReceive: event)
    }
}
