extension JSONRPCClient {
    /// Completion-closure face of ``call(_:params:timeout:retries:)``: returns the request's id at once (for
    /// ``cancelRequest(_:)``); `completion` runs exactly once, on no particular thread.
    @discardableResult
    public func call(
        _ method: String, params: JSONValue? = nil, timeout: Duration? = nil, retries: Int? = nil,
        completion: @escaping @Sendable (Result<JSONValue, RPCError>) -> Void
    ) -> RequestID {
        let (id, outcome, text) = startRequest(method, params: params, timeout: timeout, retries: retries)
        Task {
            await dispatch(text, completing: [id])
            completion(await outcome.wait())
        }
        return id
    }

    /// Completion-closure face of ``notify(_:params:)``; `completion` gets the send failure, if any.
    public func notify(_ method: String, params: JSONValue? = nil, completion: @escaping @Sendable ((any Error)?) -> Void) {
        Task {
            do { try await notify(method, params: params); completion(nil) } catch { completion(error) }
        }
    }

    /// Completion-closure face of ``connect()``.
    public func connect(completion: @escaping @Sendable ((any Error)?) -> Void) {
        Task {
            do { try await connect(); completion(nil) } catch { completion(error) }
        }
    }
}
