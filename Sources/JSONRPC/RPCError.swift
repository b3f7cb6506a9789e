/// Everything a JSON-RPC call can fail with (docs/architecture.md#error-types): the peer's error object, or a local
/// failure.
public enum RPCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer answered with this error object.
    case remote(RPCErrorObject)
    /// No response after `attempts` transmissions of the same request (the first plus the retries).
    case timeout(method: String, attempts: Int)
    /// The request was cancelled locally (one request, all requests, or the calling task).
    case cancelled
    /// The connection ended before the response arrived (or could not be opened).
    case connectionClosed(ConnectionEnd?)
    /// The peer sent something that is not a valid response, or a result that does not decode as expected.
    case invalidResponse(String)
    /// The params could not be encoded as JSON.
    case encodingFailed(String)

    /// The peer's error object, if this is a remote error.
    public var remoteError: RPCErrorObject? { if case .remote(let e) = self { e } else { nil } }

    public var description: String {
        switch self {
        case .remote(let error):
            return "the peer answered with \(error)"
        case .timeout(let method, let attempts):
            return "'\(method)' got no response after \(attempts) attempt(s); check that the server is reachable "
                + "and answers this method, or raise requestTimeout/retries"
        case .cancelled:
            return "the request was cancelled before its response arrived"
        case .connectionClosed(let end?):
            return "the connection \(end) before the response arrived; reconnect and call again"
        case .connectionClosed(nil):
            return "not connected: call connect() first, or enable autoConnect"
        case .invalidResponse(let detail):
            return "invalid response: \(detail)"
        case .encodingFailed(let detail):
            return "the params could not be encoded as JSON: \(detail)"
        }
    }
}
