public import JSONRPC

/// What happens to one ``SharedObject``, in the order the client applied it. ``SharedObject/data`` is updated
/// before the event is published.
public enum SharedObjectEvent: Sendable, Hashable {
    /// The whole state arrived: after ``SharedObject/connect(persistent:)``, and again after every re-sync (a
    /// reconnection, or a gap in the versions), when it replaced the snapshot.
    case connected(SharedObjectState)
    /// The server applied a change: its version and only the keys it changed (`JSONValue.null`: removed).
    case updated(SharedObjectUpdate)
    /// A message sent with ``SharedObject/send(_:params:)`` by any client of the object, this one included; `sender`
    /// is who sent it as the server knows that session (``SharedObjectMessage/sender``).
    case message(method: String, params: JSONValue?, sender: SharedObjectSender? = nil)
    /// The object was closed: by ``SharedObject/close()``, or by the server (the reason says why).
    case closed(reason: String)
}

extension SharedObjectUpdate {
    /// The keys this version changed.
    public var changedKeys: Set<String> { Set(changed.keys) }
}
