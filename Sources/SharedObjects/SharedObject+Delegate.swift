import JSONRPC
import Logging
import SignalingSupport

/// The delegate face of a ``SharedObject``: one more subscriber to its ``SharedObject/events``. Every method has
/// an empty default. Calls arrive on no particular thread, one at a time, in order, after ``SharedObject/data``
/// was updated.
public protocol SharedObjectDelegate: AnyObject, Sendable {
    /// The whole state arrived (connect, or a re-sync).
    func sharedObject(_ object: SharedObject, didConnect state: SharedObjectState)
    /// A change was applied: its version and the changed keys.
    func sharedObject(_ object: SharedObject, didUpdate update: SharedObjectUpdate)
    /// A message sent to the object arrived (also this client's own).
    func sharedObject(_ object: SharedObject, didReceiveMessage method: String, params: JSONValue?)
    /// The object was closed.
    func sharedObject(_ object: SharedObject, didCloseWithReason reason: String)
}

/// Empty defaults: a delegate implements only what it needs.
extension SharedObjectDelegate {
    public func sharedObject(_ object: SharedObject, didConnect state: SharedObjectState) {}
    public func sharedObject(_ object: SharedObject, didUpdate update: SharedObjectUpdate) {}
    public func sharedObject(_ object: SharedObject, didReceiveMessage method: String, params: JSONValue?) {}
    public func sharedObject(_ object: SharedObject, didCloseWithReason reason: String) {}
}

extension SharedObject {
    /// The delegate, held weakly. Setting it subscribes it to ``events`` from that moment on.
    public var delegate: (any SharedObjectDelegate)? {
        get { delegateFeeder.delegate }
        set {
            delegateFeeder.set(newValue, subscribe: { events }, deliver: { [weak self] event, delegate in
                guard let self else { return false }
                switch event {
                case .connected(let state): delegate.sharedObject(self, didConnect: state)
                case .updated(let update): delegate.sharedObject(self, didUpdate: update)
                case .message(let method, let params): delegate.sharedObject(self, didReceiveMessage: method, params: params)
                case .closed(let reason): delegate.sharedObject(self, didCloseWithReason: reason)
                }
                return true
            }, failed: { [logger] error in logger.error("delegate events ended: \(error)") })
        }
    }
}
