import JSONRPC

/// Everything a ``KurentoClient`` call can fail with: Kurento Media Server's own error (code, message and its
/// `data.type`), or a local failure (timeout, lost connection, a reply of the wrong shape).
public enum KurentoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// KMS answered with this error: `code` (``KurentoErrorCode`` names the known ones), its message, and the
    /// `data.type` KMS adds (`"MEDIA_OBJECT_NOT_FOUND"`), if any.
    case server(code: Int, message: String, type: String?)
    /// No answer within the request's timeout. The request may still run in KMS: an object it creates is
    /// released when the late answer arrives (docs/kurento.md#timeouts).
    case timeout(operation: String, after: Duration)
    /// The connection to KMS ended, or could not be opened, before the answer arrived.
    case connectionLost(String)
    /// The request was cancelled (its task, or ``KurentoClient/close()``).
    case cancelled
    /// KMS sent something this client cannot use (a result or event of the wrong shape).
    case invalidResponse(String)

    /// The KMS error code, for ``server(code:message:type:)``.
    public var code: KurentoErrorCode? {
        if case .server(let code, _, _) = self { KurentoErrorCode(rawValue: code) } else { nil }
    }

    /// Whether KMS no longer has the object (40101): it was released, or KMS restarted.
    public var isObjectNotFound: Bool { code == .mediaObjectNotFound }

    public var description: String {
        switch self {
        case .server(let code, let message, let type):
            "Kurento Media Server error \(code)\(type.map { " \($0)" } ?? ""): \(message)"
        case .timeout(let operation, let after):
            "Kurento Media Server did not answer '\(operation)' within \(after)"
        case .connectionLost(let reason):
            "the connection to Kurento Media Server was lost: \(reason)"
        case .cancelled:
            "the Kurento request was cancelled"
        case .invalidResponse(let detail):
            "invalid reply from Kurento Media Server: \(detail)"
        }
    }

    /// The error of a failed JSON-RPC call `operation` that waited `timeout`.
    init(_ error: any Error, operation: String, timeout: Duration) {
        guard let rpc = error as? RPCError else {
            self = error as? KurentoError ?? .invalidResponse("\(error)")
            return
        }
        switch rpc {
        case .remote(let object):
            self = .server(code: object.code, message: object.message, type: object.data?["type"]?.stringValue)
        case .timeout: self = .timeout(operation: operation, after: timeout)
        case .cancelled: self = .cancelled
        case .connectionClosed(let end?): self = .connectionLost("\(end)")
        case .connectionClosed(nil): self = .connectionLost("not connected")
        case .unauthorized(let end), .forbidden(let end): self = .connectionLost("refused: \(end)")
        case .invalidResponse(let detail), .encodingFailed(let detail): self = .invalidResponse(detail)
        }
    }
}
