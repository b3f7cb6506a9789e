import SignalingSupport

extension JSONRPCClient {
    /// One request of ``JSONRPCClient/callPipelined(_:timeout:)``.
    public struct PipelinedCall: Sendable, Hashable {
        /// The method's name.
        public var method: String
        /// Its params; `nil` for none.
        public var params: JSONValue?

        /// Creates a request.
        public init(_ method: String, params: JSONValue? = nil) {
            self.method = method
            self.params = params
        }
    }

    /// Sends `calls` back to back, each as a request of its own (not a JSON-RPC batch), in this order, without
    /// waiting for any answer in between; then waits for every outcome and returns them in the same order.
    ///
    /// For servers that process one connection's requests in order and refuse batches, such as Kurento Media Server
    /// (docs/kurento.md#round-trips): N requests that depend on each other cost one round trip instead of N. While
    /// connected, the requests are queued on the connection in one step, so no other call of this client comes
    /// between them; while reconnecting, they wait for the connection together and then go out in order.
    ///
    /// Each request completes exactly once, as a ``call(_:params:timeout:retries:)`` does: with its own timeout and retries,
    /// and one that fails does not stop the others (they are on the wire already). Cancelling the calling task
    /// completes every request still pending with ``RPCError/cancelled``.
    public func callPipelined(_ calls: [PipelinedCall], timeout: Duration? = nil) async -> [Result<JSONValue, RPCError>] {
        guard !calls.isEmpty else { return [] }
        if Task.isCancelled { return calls.map { _ in .failure(.cancelled) } }
        let started = calls.map { startRequest($0.method, params: $0.params, timeout: timeout) }
        let ids = started.map(\.0)
        return await withTaskCancellationHandler {
            dispatchInOrder(started.map { ($0.2, [$0.0]) })
            var results: [Result<JSONValue, RPCError>] = []
            for request in started { results.append(await request.1.wait()) }
            return results
        } onCancel: {
            for id in ids { completeRequest(id, with: .failure(.cancelled)) }
        }
    }

    /// Queues `messages` (each the text of the registered requests `ids`: one request, or a batch) on one connection,
    /// in order, in one step. Connected: inline, so one task's calls leave in order. Not connected: on its own once
    /// the connection is there, so that cancellation and timeouts are not held up by it; a message whose requests all
    /// ended meanwhile (a fresh session failed them, a timeout, a cancellation) is not sent, since their callers were
    /// told. A failed send completes the requests of that message and the ones after it with the failure.
    func dispatchInOrder(_ messages: [(text: String, ids: [RequestID])]) {
        if case .send(let connection) = state.withLock({ $0.machine.sendAction }) {
            queue(messages, on: connection, connected: true)
            return
        }
        Task { [weak self] in
            guard let self else { return }
            let connection: any MessageConnection
            do {
                // (a close that failed every one of them before this ran leaves nothing to dial for)
                connection = try await self.connectionForSending(for: messages.flatMap(\.ids))
            } catch {
                let failure = error as? RPCError ?? .connectionClosed(nil)
                for id in messages.flatMap(\.ids) { self.completeRequest(id, with: .failure(failure)) }
                return
            }
            self.queue(messages, on: connection, connected: false)
        }
    }

    /// Queues `messages` on `connection`, in order; `connected`: it was open when they were dispatched (else a
    /// message whose requests all ended meanwhile is skipped).
    private func queue(_ messages: [(text: String, ids: [RequestID])], on connection: any MessageConnection,
                       connected: Bool) {
        for (index, message) in messages.enumerated() {
            if !connected, !withRequests({ table in message.ids.contains(where: table.contains) }) { continue }
            do {
                // Queued without waiting for the write where the connection can: the response completes the call.
                try connection.enqueue(message.text)
            } catch {
                sendFailed(error, failing: messages[index...].flatMap(\.ids))
                return
            }
        }
    }

    /// A queued send failed with `error`: the requests `ids` (that message's and the ones queued after it) fail now,
    /// unless the connection is dying with reconnect on: the drop's handling then re-sends them on resume or fails
    /// them.
    func sendFailed(_ error: any Error, failing ids: [RequestID]) {
        if configuration.reconnect != .off, error is ConnectionEnd { return }
        let failure = RPCError.connectionClosed(error as? ConnectionEnd)
        for id in ids { completeRequest(id, with: .failure(failure)) }
    }
}
