/// What a server handler knows about the call it is answering.
public struct RPCRequestContext: Sendable {
    /// The caller's session (for server→client notifications and requests, and the session id).
    public let session: ServerSession
    /// The method called.
    public let method: String
    /// The request id; `nil` for a notification.
    public let id: RequestID?
    /// The request's span of its connection's trace (docs/operations.md#tracing); the handler runs with it in
    /// `ServiceContext.current`, so log lines with the ``/Logging/Logger/MetadataProvider/traceParent`` provider
    /// carry its ids.
    public let traceParent: TraceParent?

    init(session: ServerSession, method: String, id: RequestID?, traceParent: TraceParent? = nil) {
        self.session = session
        self.method = method
        self.id = id
        self.traceParent = traceParent
    }
}
