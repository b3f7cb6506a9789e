/// What a ``JSONRPCClient`` counted of its session's notifications, and when it acknowledges them
/// (docs/wire-protocol.md#delivery): a pure value the client holds under its lock, beside its
/// ``ClientConnectionMachine``, so that counting a notification and checking that it came from the current
/// connection are one step.
///
/// The server numbers notifications implicitly (the n-th it handed to the session's connections is number n), so
/// the count of notifications read from the session's current connections is the number of the last one. The
/// client says it on `connect {"sessionId", "received"}` when it resumes; the server hands the new connection
/// exactly the ones after it.
struct ClientDelivery: Sendable {
    /// Acknowledge after this many notifications since the last acknowledgement…
    static let acknowledgeEvery = 32
    /// …or after this many bytes of them, whichever comes first.
    static let acknowledgeEveryBytes = 64 << 10

    /// Notifications read in this session.
    private(set) var received: UInt64 = 0
    /// The count last acknowledged.
    private(set) var acknowledged: UInt64 = 0
    private var bytesSinceAcknowledged = 0
    /// The server listed ``ServerCapabilities/replay`` in its answer to this session's `connect`: it keeps what it
    /// sent until acknowledged, and takes acknowledgements.
    var serverAcknowledges = false

    /// One more notification of `bytes` was read; returns the count to acknowledge now, if one is due.
    mutating func read(bytes: Int) -> UInt64? {
        received += 1
        bytesSinceAcknowledged += bytes
        guard serverAcknowledges,
              received - acknowledged >= UInt64(Self.acknowledgeEvery) || bytesSinceAcknowledged >= Self.acknowledgeEveryBytes
        else { return nil }
        return acknowledging()
    }

    /// Marks everything read as acknowledged (a `ping` carries it) and returns the count.
    mutating func acknowledging() -> UInt64 {
        acknowledged = received
        bytesSinceAcknowledged = 0
        return received
    }

    /// The session is a new one: nothing read yet.
    mutating func startSession() { self = ClientDelivery() }
}
