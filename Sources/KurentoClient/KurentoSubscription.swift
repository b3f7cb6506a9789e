/// One local subscriber to an event of a KMS object (``MediaObject/subscribe(_:_:)``). Several subscribers to the
/// same event of the same object share one subscription on the wire: KMS 6 raised an event once per wire
/// subscription, 7 once per session (Kurento/kurento `server/media-server/server/transport/websocket/WebSocketTransport.cpp`,
/// `processSubscription`), and this way each subscriber sees every event exactly once with either.
public final class KurentoSubscription: Sendable {
    let client: KurentoClient?
    let key: EventKey
    let token: UInt64

    init(client: KurentoClient, key: EventKey, token: UInt64) {
        self.client = client
        self.key = key
        self.token = token
    }

    /// The object whose events this subscriber receives.
    public var object: String { key.object }
    /// The event's name (``KurentoEvent/eventType``).
    public var eventType: String { key.type }

    /// Stops delivering events to this subscriber; the last subscriber of an event unsubscribes on the wire. Safe
    /// to call more than once, and after the object was released.
    public func cancel() async {
        await client?.removeHandler(token, of: key)
    }
}

/// An object and one of its events: what a wire subscription is for.
struct EventKey: Hashable, Sendable {
    var object: String
    var type: String
}
