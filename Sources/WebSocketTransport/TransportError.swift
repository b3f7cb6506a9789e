/// The errors of the WebSocket transport layer (docs/architecture.md#error-types). Each description says what to do
/// about it.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL could not be used (scheme, host or port).
    case invalidURL(String)
    /// The TCP or WebSocket connection could not be established.
    case connectFailed(String)
    /// The server answered the upgrade with an HTTP status instead of 101 (401 or 403 from an authorizer, 404 for a
    /// path it does not serve, 429 over a per-address cap); `detail` is what libwebsockets said.
    case upgradeRefused(status: Int, detail: String)
    /// The connection was not established within the handshake timeout.
    case handshakeTimeout(Duration)
    /// The server's certificate is not trusted by the configured CAs.
    case tlsCertificateUntrusted(String)
    /// The server's certificate is trusted but does not name the host that was dialled.
    case tlsHostnameMismatch(String)
    /// Another TLS failure (protocol, key or file problem).
    case tlsFailure(String)
    /// The connection is closed; carries the close code and reason.
    case closed(WebSocketCloseInfo)
    /// A message exceeded the configured maximum size.
    case messageTooBig(size: Int, limit: Int)
    /// The server could not listen.
    case listenFailed(String)
    /// The event loop has been shut down.
    case eventLoopShutDown
    /// The event loop could not start: libwebsockets refused its context or vhost, or no thread could be made.
    case eventLoopUnavailable(String)

    public var description: String {
        switch self {
        case .invalidURL(let s): "invalid WebSocket URL: \(s) (expected ws:// or wss://host[:port]/path)"
        case .connectFailed(let s): "connect failed: \(s)"
        case .upgradeRefused(let status, let detail): "connect failed: server answered HTTP \(status) instead of 101 (\(detail))"
        case .handshakeTimeout(let d): "WebSocket handshake did not complete within \(d); is the server up and speaking WebSocket?"
        case .tlsCertificateUntrusted(let s): "TLS: server certificate is not trusted (\(s)); configure its CA with `TLSClientConfiguration.caFile`"
        case .tlsHostnameMismatch(let s): "TLS: server certificate does not match the host name (\(s))"
        case .tlsFailure(let s): "TLS failure: \(s)"
        case .closed(let info): "connection \(info)"
        case .messageTooBig(let size, let limit): "message of \(size) bytes exceeds the limit of \(limit) bytes"
        case .listenFailed(let s): "cannot listen: \(s)"
        case .eventLoopShutDown: "the WebSocket event loop has been shut down"
        case .eventLoopUnavailable(let s): "the WebSocket event loop could not start: \(s)"
        }
    }
}
