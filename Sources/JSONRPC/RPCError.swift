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
    /// The server refused the connection as unauthenticated (a missing, invalid or expired bearer token): HTTP 401
    /// at the upgrade, or close 4401 after it; the ``ConnectionEnd`` has code 4401 either way. Final: the client
    /// does not dial again, and ``JSONRPCClient/connect()`` and every later call fail with it at once
    /// (docs/architecture.md#close-policy).
    case unauthorized(ConnectionEnd)
    /// The server refused the connection as not allowed (HTTP 403 at the upgrade, or close 4403 after it; code 4403
    /// either way). Final, as ``unauthorized(_:)``.
    case forbidden(ConnectionEnd)
    /// The peer sent something that is not a valid response, or a result that does not decode as expected.
    case invalidResponse(String)
    /// The params could not be encoded as JSON.
    case encodingFailed(String)

    /// The peer's error object, if this is a remote error.
    public var remoteError: RPCErrorObject? { if case .remote(let e) = self { e } else { nil } }

    /// How the connection ended, for ``connectionClosed(_:)``, ``unauthorized(_:)`` and ``forbidden(_:)``.
    public var connectionEnd: ConnectionEnd? {
        switch self {
        case .connectionClosed(let end): end
        case .unauthorized(let end), .forbidden(let end): end
        case .remote, .timeout, .cancelled, .invalidResponse, .encodingFailed: nil
        }
    }

    /// Whether the server refused the connection (``unauthorized(_:)`` or ``forbidden(_:)``): final, nothing dials
    /// again.
    public var isAuthorizationRefusal: Bool { connectionEnd?.isAuthorizationRefusal == true }

    /// The error of a connection that ended with `end`: ``unauthorized(_:)`` for close code 4401,
    /// ``forbidden(_:)`` for 4403, ``connectionClosed(_:)`` for any other end.
    public static func closed(_ end: ConnectionEnd?) -> RPCError {
        switch end?.code {
        case 4401?: .unauthorized(end!)
        case 4403?: .forbidden(end!)
        default: .connectionClosed(end)
        }
    }

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
        case .unauthorized(let end):
            return "the server refused the connection as unauthorized (\(end)): the bearer token is missing, invalid "
                + "or expired; the client does not reconnect"
        case .forbidden(let end):
            return "the server refused the connection as forbidden (\(end)): the token does not allow it; the client "
                + "does not reconnect"
        case .invalidResponse(let detail):
            return "invalid response: \(detail)"
        case .encodingFailed(let detail):
            return "the params could not be encoded as JSON: \(detail)"
        }
    }
}
