public import JSONRPC
import Logging
import SignalingSupport

/// The delegate face of a ``SharedObject``: one more subscriber to its ``SharedObject/events``. Every method has
/// an empty default. Calls arrive on no particular thread, one at a time, in order, after ``SharedObject/data``
/// was updated, and never under a lock of the object: a delegate may call it back.
///
/// **Falling behind.** The object does not wait for its delegate: events wait in a buffer of 1,024. A delegate
/// more than that behind misses the events that do not fit; it then gets ``sharedObject(_:didLoseEvents:)`` once,
/// with how many it missed, as soon as it has handled the events before the gap, and goes on with the later
/// ones.
public protocol SharedObjectDelegate: AnyObject, Sendable {
    /// The whole state arrived (connect, or a re-sync).
    func sharedObject(_ object: SharedObject, didConnect state: SharedObjectState)
    /// A change was applied: its version and the changed keys.
    func sharedObject(_ object: SharedObject, didUpdate update: SharedObjectUpdate)
    /// A message sent to the object arrived (also this client's own).
    func sharedObject(_ object: SharedObject, didReceiveMessage method: String, params: JSONValue?)
    /// A message sent to the object arrived (also this client's own), with who sent it as the server knows that
    /// session. The default calls ``sharedObject(_:didReceiveMessage:params:)``.
    func sharedObject(_ object: SharedObject, didReceiveMessage method: String, params: JSONValue?,
                      from sender: SharedObjectSender?)
    /// The object was closed.
    func sharedObject(_ object: SharedObject, didCloseWithReason reason: String)
    /// The delegate fell more than 1,024 events behind and missed `count` events right after the last one it
    /// was given. Called once per gap, as soon as the delegate has handled the events before it; later events are
    /// delivered as usual. Resynchronize from
    /// ``SharedObject/snapshot`` (``SharedObject/data`` and ``SharedObject/version``), which already includes the
    /// missed updates; missed messages are gone.
    func sharedObject(_ object: SharedObject, didLoseEvents count: Int)
}

/// Empty defaults: a delegate implements only what it needs.
extension SharedObjectDelegate {
    public func sharedObject(_ object: SharedObject, didConnect state: SharedObjectState) {}
    public func sharedObject(_ object: SharedObject, didUpdate update: SharedObjectUpdate) {}
    public func sharedObject(_ object: SharedObject, didReceiveMessage method: String, params: JSONValue?) {}
    public func sharedObject(_ object: SharedObject, didReceiveMessage method: String, params: JSONValue?,
                             from sender: SharedObjectSender?) {
        sharedObject(object, didReceiveMessage: method, params: params)
    }
    public func sharedObject(_ object: SharedObject, didCloseWithReason reason: String) {}
    public func sharedObject(_ object: SharedObject, didLoseEvents count: Int) {}
}

extension SharedObject {
    /// The delegate, held weakly. Setting it subscribes it to ``events`` from that moment on.
    public var delegate: (any SharedObjectDelegate)? {
        get { delegateFeeder.delegate }
        set {
            delegateFeeder.set(newValue, of: self, events: eventHub, logger: logger) { object, event, delegate in
                switch event {
                case .connected(let state): delegate.sharedObject(object, didConnect: state)
                case .updated(let update): delegate.sharedObject(object, didUpdate: update)
                case .message(let method, let params, let sender):
                    delegate.sharedObject(object, didReceiveMessage: method, params: params, from: sender)
                case .closed(let reason): delegate.sharedObject(object, didCloseWithReason: reason)
                }
            } lost: { object, count, delegate in
                delegate.sharedObject(object, didLoseEvents: count)
            }
        }
    }
}
