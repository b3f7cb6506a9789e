extension JSONRPCClient {
    /// Completion-closure face of ``call(_:params:timeout:retries:)``: returns the request's id at once (for
    /// ``cancelRequest(_:)``); `completion` runs exactly once, on no particular thread.
    @discardableResult
    public func call(
        _ method: String, params: JSONValue? = nil, timeout: Duration? = nil, retries: Int? = nil,
        completion: @escaping @Sendable (Result<JSONValue, RPCError>) -> Void
    ) -> RequestID {
        let (id, outcome, text) = startRequest(method, params: params, timeout: timeout, retries: retries)
        dispatch(text, for: id)
        Task { completion(await outcome.wait()) }
        return id
    }

    /// Completion-closure face of ``notify(_:params:)``: `completion` runs exactly once, on no particular thread,
    /// with `.success` once the notification is handed to the connection, or the send failure.
    public func notify(_ method: String, params: JSONValue? = nil,
                       completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.notify(method, params: params) }
    }

    /// Completion-closure face of ``connect()``: `completion` runs exactly once, on no particular thread (the
    /// same shape as `SignalingClient`'s).
    public func connect(completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.connect() }
    }
}
