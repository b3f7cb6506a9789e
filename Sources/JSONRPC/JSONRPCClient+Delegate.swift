import Logging
import SignalingSupport

/// The NBMJSONRPCClientDelegate counterpart (PROTOCOL §1). Every method has an empty default. Calls arrive on
/// no particular thread, in the order the events happened. Unlike NBM's, `didFailWithError` is really called:
/// for a failed connect, an unexpected drop, and messages from the server that are not valid JSON-RPC.
public protocol JSONRPCClientDelegate: AnyObject, Sendable {
    /// The client connected, or reconnected (see ``JSONRPCClient/connectionState`` for resumed or fresh).
    func clientDidConnect(_ client: JSONRPCClient)
    /// The client's connection ended: for good, or lost while a reconnection starts.
    func clientDidDisconnect(_ client: JSONRPCClient)
    /// The server sent a request (it is answered by the handler registered with ``JSONRPCClient/handle(_:_:)``).
    func client(_ client: JSONRPCClient, didReceiveRequest request: RPCRequest)
    /// Something failed outside any one call.
    func client(_ client: JSONRPCClient, didFailWithError error: RPCError)
}

/// Empty defaults: a delegate implements only what it needs.
extension JSONRPCClientDelegate {
    public func clientDidConnect(_ client: JSONRPCClient) {}
    public func clientDidDisconnect(_ client: JSONRPCClient) {}
    public func client(_ client: JSONRPCClient, didReceiveRequest request: RPCRequest) {}
    public func client(_ client: JSONRPCClient, didFailWithError error: RPCError) {}
}

extension JSONRPCClient {
    /// The delegate, held weakly. Setting it subscribes it to the client's events from that moment on.
    public var delegate: (any JSONRPCClientDelegate)? {
        get { delegateFeeder.delegate }
        set {
            delegateFeeder.set(newValue, subscribe: { eventHub.subscribe() }, deliver: { [weak self] event, delegate in
                guard let self else { return false }
                switch event {
                case .connected: delegate.clientDidConnect(self)
                case .disconnected: delegate.clientDidDisconnect(self)
                case .request(let request): delegate.client(self, didReceiveRequest: request)
                case .failure(let error): delegate.client(self, didFailWithError: error)
                }
                return true
            }, failed: { [logger] error in logger.error("delegate events ended: \(error)") })
        }
    }
}
