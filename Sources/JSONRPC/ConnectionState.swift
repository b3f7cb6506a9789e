/// The observable connection state of a ``JSONRPCClient`` (docs/architecture.md#states).
///
/// A drop with ``JSONRPCClient/ReconnectPolicy/automatic(_:)`` goes `connected → reconnecting(1) → … →
/// resumed` when the server still knew the session, or `→ connected` when it did not (40007: a fresh session;
/// a `RoomClient` then rejoins and reports ``rejoined``). It ends in ``disconnected(_:)`` when the close code
/// forbids reconnecting, the budget ran out, or the user closed the client.
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Not connected: never connected yet (`nil`), or the connection ended as described.
    case disconnected(ConnectionEnd?)
    /// A connection is being opened.
    case connecting
    /// Connected: calls go out at once. After a reconnect, this means a fresh session (the old one was gone).
    case connected
    /// The connection was lost; attempt `attempt` (from 1) to reconnect is waiting for its backoff or running.
    /// Calls wait in a bounded queue and request deadlines keep running.
    case reconnecting(attempt: Int)
    /// Reconnected, and the server resumed the old session (`connect{sessionId}` succeeded): pending requests
    /// were re-sent and the server replays what it queued. Calls go out at once.
    case resumed
    /// Reported by a `RoomClient` only: after a reconnect into a fresh session, the room was joined again.
    case rejoined

    /// Whether calls go out at once: ``connected``, ``resumed`` or ``rejoined``.
    public var isConnected: Bool {
        switch self {
        case .connected, .resumed, .rejoined: true
        case .disconnected, .connecting, .reconnecting: false
        }
    }

    public var description: String {
        switch self {
        case .disconnected(let end?): "disconnected (\(end))"
        case .disconnected(nil): "disconnected"
        case .connecting: "connecting"
        case .connected: "connected"
        case .reconnecting(let attempt): "reconnecting (attempt \(attempt))"
        case .resumed: "resumed"
        case .rejoined: "rejoined"
        }
    }
}
