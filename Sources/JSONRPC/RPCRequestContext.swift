import Tracing

/// What a server handler knows about the call it is answering.
public struct RPCRequestContext: Sendable {
    /// The caller's session (for server→client notifications and requests, and the session id).
    public let session: ServerSession
    /// The method called.
    public let method: String
    /// The request id; `nil` for a notification.
    public let id: RequestID?
    /// The request's own span of its connection's trace (docs/operations.md#tracing), made when asked for: the
    /// handler runs in its connection's `ServiceContext`, whose ``TraceParent`` log lines carry (with the
    /// `Logger.MetadataProvider.traceParent` provider); a handler that wants the request's span in
    /// its lines adds this one's ``TraceParent/metadata``.
    public var traceParent: TraceParent? {
        ServiceContext.current?.traceParent.map { $0.child(spanID: JSONRPCServer.spanID(of: id, under: $0)) }
    }

    init(session: ServerSession, method: String, id: RequestID?) {
        self.session = session
        self.method = method
        self.id = id
    }
}
