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

    /// Claims this request's outcome for the handler, just before it commits what the request does; call it under
    /// the lock that guards what it commits, and commit only when it returns `true`
    /// (docs/architecture.md#handler-deadlines).
    ///
    /// `false` when the caller is told, or will be, that the request failed: its handler deadline passed
    /// (``JSONRPCServer/Configuration/handlerTimeout``, -32001 went out) or the server is stopping. The handler
    /// must then undo what it did on the way (a reservation, an endpoint) and throw: what it throws reaches no one
    /// after a deadline. `true` takes the request off the deadline: the handler's answer, success or error, is the
    /// one the caller gets, however long the handler still runs, so claim at the end. Claiming again answers the
    /// same. Without a deadline (an inline handler, or a context made elsewhere) it is `true` unless the task is
    /// cancelled.
    public func claimCompletion() -> Bool {
        guard let claim = InFlightWork.current else { return !Task.isCancelled }
        return claim.commit()
    }

    init(session: ServerSession, method: String, id: RequestID?) {
        self.session = session
        self.method = method
        self.id = id
    }
}
