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

/// The weakly held delegate and the task feeding it.
struct SharedObjectDelegateSlot {
    weak var delegate: (any SharedObjectDelegate)?
    var feeder: Task<Void, Never>?
}

extension SharedObject {
    /// The delegate, held weakly. Setting it subscribes it to ``events`` from that moment on.
    public var delegate: (any SharedObjectDelegate)? {
        get { state.withLock { $0.delegate.delegate } }
        set {
            let feeder = newValue.map { _ in
                let events = self.events
                return Task { [weak self] in
                    do {
                        for try await event in events {
                            guard let self, let delegate = self.delegate else { return }
                            switch event {
                            case .connected(let state): delegate.sharedObject(self, didConnect: state)
                            case .updated(let update): delegate.sharedObject(self, didUpdate: update)
                            case .message(let method, let params):
                                delegate.sharedObject(self, didReceiveMessage: method, params: params)
                            case .closed(let reason): delegate.sharedObject(self, didCloseWithReason: reason)
                            }
                        }
                    } catch {
                        self?.logger.error("delegate events ended: \(error)")
                    }
                }
            }
            let previous = state.withLock { s -> Task<Void, Never>? in
                defer { s.delegate = SharedObjectDelegateSlot(delegate: newValue, feeder: feeder) }
                return s.delegate.feeder
            }
            previous?.cancel()
        }
    }
}
