import Logging
import SignalingSupport

/// The NBMJSONRPCClientDelegate counterpart (docs/wire-protocol.md#counterparts). Every method has an empty default.
/// Calls arrive on no particular thread, one at a time, in the order the events happened, never under a lock of the
/// client: a delegate may call the client back. Unlike NBM's, `didFailWithError` is really called: for a failed
/// connect, an unexpected drop, and messages from the server that are not valid JSON-RPC.
///
/// **Falling behind.** The client does not wait for its delegate: events wait in a buffer of 4,096. A delegate
/// more than that behind misses the events that do not fit; it then gets ``client(_:didLoseEvents:)`` once, with
/// how many it missed, as soon as it has handled the events before the gap, and goes on with the later ones. A
/// delegate either hears every event or hears of every gap.
public protocol JSONRPCClientDelegate: AnyObject, Sendable {
    /// The client connected, or reconnected (see ``JSONRPCClient/connectionState`` for resumed or fresh).
    func clientDidConnect(_ client: JSONRPCClient)
    /// The client's connection ended: for good, or lost while a reconnection starts.
    func clientDidDisconnect(_ client: JSONRPCClient)
    /// The server sent a request (it is answered by the handler registered with ``JSONRPCClient/handle(_:_:)-(_,(JSONValue?)->JSONValue)``).
    func client(_ client: JSONRPCClient, didReceiveRequest request: RPCRequest)
    /// Something failed outside any one call.
    func client(_ client: JSONRPCClient, didFailWithError error: RPCError)
    /// The delegate fell more than 4,096 events behind and missed `count` events (connects, disconnects, server
    /// requests, failures) right after the last one it was given. Called once per gap, as soon as the delegate has
    /// handled the events before it (not with the next event, which may be long in coming); later events are
    /// delivered as usual. Resynchronize from the client's state (``JSONRPCClient/connectionState``); missed
    /// server requests were still answered by their handlers.
    func client(_ client: JSONRPCClient, didLoseEvents count: Int)
}

/// Empty defaults: a delegate implements only what it needs.
extension JSONRPCClientDelegate {
    public func clientDidConnect(_ client: JSONRPCClient) {}
    public func clientDidDisconnect(_ client: JSONRPCClient) {}
    public func client(_ client: JSONRPCClient, didReceiveRequest request: RPCRequest) {}
    public func client(_ client: JSONRPCClient, didFailWithError error: RPCError) {}
    public func client(_ client: JSONRPCClient, didLoseEvents count: Int) {}
}

extension JSONRPCClient {
    /// The delegate, held weakly. Setting it subscribes it to the client's events from that moment on.
    public var delegate: (any JSONRPCClientDelegate)? {
        get { delegateFeeder.delegate }
        set {
            delegateFeeder.set(newValue, of: self, events: eventHub, logger: logger) { client, event, delegate in
                switch event {
                case .connected: delegate.clientDidConnect(client)
                case .disconnected: delegate.clientDidDisconnect(client)
                case .request(let request): delegate.client(client, didReceiveRequest: request)
                case .failure(let error): delegate.client(client, didFailWithError: error)
                }
            } lost: { client, count, delegate in
                delegate.client(client, didLoseEvents: count)
            }
        }
    }
}
