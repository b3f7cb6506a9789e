/// What one session may do with shared objects (docs/wire-protocol.md#limits: each refusal is a clear error). The codes
/// are ``/SharedObjects/SharedObjectErrorCode``'s.
public struct SharedObjectLimits: Sendable, Hashable {
    /// Objects one session may be connected to at once; one more gets 1103. Default 100.
    public var maxObjectsPerSession: Int
    /// The largest object, as the UTF-8 length of its data's JSON text; a change that would exceed it gets 1104
    /// and changes nothing. Default 64 KiB.
    public var maxBytesPerObject: Int
    /// `sharedObject.set` and `.send` requests one session may send per second (one-second windows on the
    /// service's clock); more get -32000 "rate limited". `nil`: no limit. Default 100.
    public var maxUpdatesPerSecond: Int?
    /// The largest `sharedObject.send`, as the UTF-8 length of the `sharedObject.message` it would send (name,
    /// method and params); a bigger one gets 1104 and reaches no one: a message goes to every client of the object,
    /// so the 1 MiB frame is far too big a cap (docs/wire-protocol.md#limits). Default 8 KiB.
    public var maxMessageBytes: Int
    /// The fan-out one session may cause per second, in bytes: a `sharedObject.set`'s `sharedObject.update`, or a
    /// `sharedObject.send`'s `sharedObject.message`, times the object's clients on this server (the sender included).
    /// Once the session's current one-second window holds this much, its sets and sends get -32000 "rate limited"
    /// until the window ends (the one that crosses the budget still goes), and nobody else is touched: so one client
    /// can never fill the others' queues (docs/wire-protocol.md#limits, as chat's
    /// `RoomServerLimits.maxBroadcastBytesPerSecond`). `nil`: no limit. Default 1 MiB.
    public var maxBroadcastBytesPerSecond: Int?
    /// Notifications waiting to be sent to one session; a session that falls further behind is closed with
    /// 1008 (docs/architecture.md#backpressure: one slow consumer never slows the others). Default 1,000.
    public var maxQueuedNotifications: Int

    /// Creates limits; every argument has its default.
    public init(maxObjectsPerSession: Int = 100, maxBytesPerObject: Int = 64 * 1024, maxUpdatesPerSecond: Int? = 100,
                maxQueuedNotifications: Int = 1000, maxMessageBytes: Int = 8 * 1024,
                maxBroadcastBytesPerSecond: Int? = 1 << 20) {
        self.maxObjectsPerSession = maxObjectsPerSession
        self.maxBytesPerObject = maxBytesPerObject
        self.maxUpdatesPerSecond = maxUpdatesPerSecond
        self.maxQueuedNotifications = maxQueuedNotifications
        self.maxMessageBytes = maxMessageBytes
        self.maxBroadcastBytesPerSecond = maxBroadcastBytesPerSecond
    }
}
