/// The shared-object extension's method names (docs/wire-protocol.md#compatibility: new names that a stock Kurento
/// server rejects with -32601). `Schemas/shared-objects.schema.json` describes every message.
public enum SharedObjectMethod: String, Sendable, Hashable, CaseIterable {
    /// Client → server: attach to an object (creating it), answered with its whole state.
    case connect = "sharedObject.connect"
    /// Client → server: change keys atomically, answered with the version the server gave the change.
    case set = "sharedObject.set"
    /// Client → server: broadcast a message to every client of the object, the sender included.
    case send = "sharedObject.send"
    /// Client → server: detach from an object.
    case close = "sharedObject.close"
}

/// The notifications a server sends to the clients of an object.
public enum SharedObjectNotificationMethod: String, Sendable, Hashable, CaseIterable {
    /// A change, with its version and only the keys it changed.
    case update = "sharedObject.update"
    /// A message sent with `sharedObject.send`.
    case message = "sharedObject.message"
    /// The server detached this client from the object (for example: it left the room the object belongs to).
    case closed = "sharedObject.closed"
}
