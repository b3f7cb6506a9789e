import SignalingSupport

extension JSONRPCClient {
    /// One element of ``JSONRPCClient/callBatch(_:timeout:)``.
    public enum BatchEntry: Sendable, Hashable {
        /// A request, answered in the results.
        case request(_ method: String, params: JSONValue? = nil)
        /// A notification, not answered.
        case notification(_ method: String, params: JSONValue? = nil)
    }

    /// Calls `method` and returns its result (discardable: a call whose result does not matter, such as `{}`,
    /// needs no variable).
    ///
    /// - Parameters:
    ///   - method: the method's name.
    ///   - params: its params; `nil` for none.
    ///   - timeout: the first attempt's timeout (each retry doubles it); default ``Configuration/requestTimeout``.
    ///   - retries: re-sends of the same request, with its id, after a timeout, for this call only; default
    ///     ``Configuration/retries``. 0 sends it once: for a call that must not run twice on a server that does
    ///     not dedupe ids (docs/wire-protocol.md#dedupe).
    /// - Throws: ``RPCError``: the peer's error, timeout, cancellation (also of the calling task), or the
    ///   connection's end.
    @discardableResult
    public func call(_ method: String, params: JSONValue? = nil, timeout: Duration? = nil,
                     retries: Int? = nil) async throws -> JSONValue {
        try await perform(method, params: params, timeout: timeout, retries: retries)
    }

    /// Calls `method` and hands its result to `apply` **in wire order**: `apply` runs as the response is handled,
    /// after every notification that arrived before the response was published (and seen by
    /// ``observeNotifications(_:)``'s observers) and before any later message is handled. The call returns what
    /// `apply` returned. Layers that keep state from both results and notifications (a room's participants)
    /// use it so that a notification right after a response can never be overwritten by that response.
    ///
    /// `apply` runs only for a result, never for an error, on no particular thread and never under a lock of the
    /// client: it may read the client and call it (through the completion-closure face, or in a task). It must be
    /// quick and must not block: while it runs, the reading of the connection waits.
    /// `timeout` and `retries` are those of ``call(_:params:timeout:retries:)``.
    /// - Throws: ``RPCError``; an error thrown by `apply` becomes ``RPCError/invalidResponse(_:)``.
    public func call<T: Sendable>(
        _ method: String, params: JSONValue? = nil, timeout: Duration? = nil, retries: Int? = nil,
        applying apply: @escaping @Sendable (JSONValue) throws -> T
    ) async throws -> T {
        let applied = LockedValue<Result<T, any Error>?>(nil)
        _ = try await perform(method, params: params, timeout: timeout, retries: retries) { result in
            let outcome = Result { try apply(result) }
            applied.withLock { $0 = outcome }
        }
        switch applied.withLock({ $0 }) {
        case .success(let value)?: return value
        case .failure(let error)?: throw error as? RPCError ?? RPCError.invalidResponse("\(error)")
        case nil: throw RPCError.invalidResponse("the result of '\(method)' was not applied")
        }
    }

    /// The one implementation behind every call overload (named apart so overload resolution cannot recurse).
    func perform(_ method: String, params: JSONValue?, timeout: Duration?, retries: Int? = nil,
                 onSuccess: (@Sendable (JSONValue) -> Void)? = nil) async throws -> JSONValue {
        if Task.isCancelled { throw RPCError.cancelled }
        // Unpaced (the default): no clock read, no suspension.
        let delay = pacer.reserve(at: clock.now)
        if delay > .zero { try await waitForSlot(delay) }
        let (id, outcome, text) = startRequest(method, params: params, timeout: timeout, retries: retries,
                                               onSuccess: onSuccess)
        return try await withTaskCancellationHandler {
            dispatch(text, for: id)
            return try await outcome.wait().get()
        } onCancel: {
            completeRequest(id, with: .failure(.cancelled))
        }
    }

    /// Waits `delay` for the request's slot when requests are paced (``paceRequests(perSecond:)``).
    /// - Throws: ``RPCError/cancelled`` when the calling task is cancelled.
    private func waitForSlot(_ delay: Duration) async throws {
        do { try await clock.sleep(for: delay) } catch { throw RPCError.cancelled }
    }

    /// Spaces this client's requests evenly at `perSecond` at most (a request waits for its slot before it is
    /// sent, so a burst of calls becomes a queue), to stay under a server's request rate limit
    /// (``ServerDescription/requestsPerSecond``); `nil` (the default) sends every request at once. Retries, pings
    /// and notifications are not paced.
    public func paceRequests(perSecond: Double?) { pacer.setRate(perSecond) }

    /// The rate ``paceRequests(perSecond:)`` set; `nil` when requests are not paced.
    public var requestPace: Double? { pacer.rate }

    /// Asks the server to describe itself: a `connect` without `sessionId` (which names the current session and
    /// changes nothing), whose result carries the service, capabilities and limits of
    /// docs/wire-protocol.md#server-description. A stock Kurento server answers with none of them.
    /// - Throws: ``RPCError``, as ``call(_:params:timeout:retries:)``.
    public func describeServer(timeout: Duration? = nil) async throws -> ServerDescription {
        ServerDescription(connectResult: try await perform(KurentoConventions.connect, params: nil, timeout: timeout))
    }

    /// Sends a notification (no response).
    public func notify(_ method: String, params: JSONValue? = nil) async throws {
        try await transmit(RPCMessage.notification(RPCNotification(method: method, params: params)).jsonText)
    }

    /// Sends `entries` as one batch (JSON-RPC 2.0 §6) and returns the outcome of each request, in order.
    /// Each request times out and retries on its own; a retry re-sends that request alone, with its id.
    public func callBatch(_ entries: [BatchEntry], timeout: Duration? = nil) async throws -> [Result<JSONValue, RPCError>] {
        guard !entries.isEmpty else { return [] }
        if Task.isCancelled { throw RPCError.cancelled }
        var messages: [RPCMessage] = []
        var requests: [(id: RequestID, outcome: OneShot<RequestTable.Outcome>)] = []
        for entry in entries {
            switch entry {
            case .request(let method, let params):
                let (id, outcome, _) = startRequest(method, params: params, timeout: timeout)
                messages.append(.request(RPCRequest(id: id, method: method, params: params)))
                requests.append((id, outcome))
            case .notification(let method, let params):
                messages.append(.notification(RPCNotification(method: method, params: params)))
            }
        }
        let ids = requests.map(\.id)
        return await withTaskCancellationHandler {
            dispatchInOrder([(RPCMessage.batchText(messages), ids)])
            var results: [Result<JSONValue, RPCError>] = []
            for request in requests { results.append(await request.outcome.wait()) }
            return results
        } onCancel: {
            for id in ids { completeRequest(id, with: .failure(.cancelled)) }
        }
    }

    /// Completes the pending request `id` with ``RPCError/cancelled``; returns whether it was pending.
    @discardableResult
    public func cancelRequest(_ id: RequestID) -> Bool { completeRequest(id, with: .failure(.cancelled)) }

    /// Completes every pending request with ``RPCError/cancelled``; returns how many there were.
    @discardableResult
    public func cancelAllRequests() -> Int { failRequests(.call, with: .cancelled) }

    /// The ids of the requests still waiting for a response.
    public var pendingRequestIDs: [RequestID] { withRequests { $0.callIDs } }

    /// Allocates an id and registers the request (with its timer) before anything is sent
    /// (docs/libwebsockets.md#prior-art).
    func startRequest(_ method: String, params: JSONValue?, timeout: Duration?, retries: Int? = nil,
                      onSuccess: (@Sendable (JSONValue) -> Void)? = nil)
        -> (RequestID, OneShot<RequestTable.Outcome>, String)
    {
        let id = RequestID.number(ids.next())
        let text = RPCRequest(id: id, method: method, params: params).jsonText
        let outcome = registerRequest(id, method: method, text: text, timeout: timeout ?? configuration.requestTimeout,
                                      retries: retries ?? configuration.retries, onSuccess: onSuccess) { [weak self] text in
            try await self?.transmit(text, unlessEnded: id)
        }
        return (id, outcome, text)
    }

    /// Sends `text`, the registered request `id`: ``dispatchInOrder(_:)`` with one message, and while connected
    /// without building its arrays (the path of every call).
    func dispatch(_ text: String, for id: RequestID) {
        guard case .send(let connection) = state.withLock({ $0.machine.sendAction }) else {
            dispatchInOrder([(text, [id])])
            return
        }
        do {
            try connection.enqueue(text)
        } catch {
            sendFailed(error, failing: [id])
        }
    }

    /// Registers the handler of server→client requests for `method` (replacing any previous one). What it returns
    /// is the result; a thrown ``RPCErrorObject`` or ``RPCError/remote(_:)`` is sent back as that error, anything
    /// else as -32603.
    public func handle(_ method: String, _ handler: @escaping @Sendable (JSONValue?) async throws -> JSONValue) {
        router.register(method) { params, _ in try await handler(params?.value) }
    }

    /// Registers a typed handler for `method`: params decode into `P` (-32602 when they don't), `R` is the result.
    public func handle<P: Decodable & SendableMetatype, R: Encodable & SendableMetatype>(_ method: String, _ handler: @escaping @Sendable (P) async throws -> R) {
        router.register(method) { (params: P, _: RPCRequest) in try await handler(params) }
    }
}
