/// What a server handler knows about the call it is answering.
public struct RPCRequestContext: Sendable {
    /// The caller's session (for server→client notifications and requests, and the session id).
    public let session: ServerSession
    /// The method called.
    public let method: String
    /// The request id; `nil` for a notification.
    public let id: RequestID?
}
