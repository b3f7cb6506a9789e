/// The observable connection state of a ``JSONRPCClient``.
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Not connected: never connected yet (`nil`), or the connection ended as described.
    case disconnected(ConnectionEnd?)
    /// A connection is being opened.
    case connecting
    /// Connected: calls go out at once.
    case connected

    /// Whether this is ``connected``.
    public var isConnected: Bool { self == .connected }

    public var description: String {
        switch self {
        case .disconnected(let end?): "disconnected (\(end))"
        case .disconnected(nil): "disconnected"
        case .connecting: "connecting"
        case .connected: "connected"
        }
    }
}
