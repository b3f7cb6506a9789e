import Logging
import SignalingSupport
import Synchronization

extension JSONRPCClient {
    /// One serial consumer per connection (docs/libwebsockets.md#prior-art, Kitura-WebSocket#8): messages are handled
    /// in arrival order, so notifications are published before any later response completes its call
    /// (docs/architecture.md#event-streams).
    ///
    /// With ``Configuration/readsOnEventLoop``, the loop runs on the connection's executor when it has one (the
    /// service thread that read the message): a response that needs no user code (no `apply`) completes its call
    /// right there, with no thread hop, as long as nothing handed off before it is still waiting to run.
    /// Everything else (notifications, server requests, responses with `apply`, failures) is handled in the
    /// callback queue, in order with the state changes and outside every lock, on the global executor: never on
    /// the service thread, since observers are user code. The loop goes on reading meanwhile, up to
    /// ``handOffLimit`` messages ahead, then waits (backpressure).
    func startReceiving(on connection: any MessageConnection, generation: Int) {
        let executor = configuration.readsOnEventLoop ? connection.executor : nil
        // Nothing cancels this task: it ends with the connection.
        let uncancelled = connection as? any UncancelledReceiving
        Task(executorPreference: executor) { [weak self] in
            while true {
                let text: String
                do {
                    if let uncancelled {
                        text = try await uncancelled.receiveUncancelled()
                    } else {
                        text = try await connection.receive()
                    }
                } catch {
                    let end = error as? ConnectionEnd ?? ConnectionEnd(code: 1006, reason: "\(error)")
                    guard let self else { return }
                    if executor == nil {
                        self.connectionEnded(generation: generation, end: end)
                    } else {
                        // Behind whatever was handed off, and off the service thread: it publishes state changes.
                        await self.callbacks.handOff(waitingBeyond: 0) {
                            self.connectionEnded(generation: generation, end: end)
                        }
                    }
                    return
                }
                guard let self else {
                    await connection.close(code: 1001, reason: "client released")
                    return
                }
                self.messagesRead.add(1, ordering: .relaxed)
                let inbound = RPCCodec.decode(text, maxDepth: self.configuration.maxDepth)
                let bytes = text.utf8.count
                if executor == nil {
                    await self.callbacks.perform {
                        self.handleInbound(inbound, bytes: bytes, from: connection, generation: generation)
                    }
                } else if !(self.callbacks.isIdle && self.completeInline(inbound)) {
                    await self.callbacks.handOff(waitingBeyond: Self.handOffLimit) {
                        self.handleInbound(inbound, bytes: bytes, from: connection, generation: generation)
                    }
                }
            }
        }
    }

    /// Messages the receive loop reads ahead of the callback queue before it waits.
    static let handOffLimit = 64

    /// Completes a call straight from the receive loop when that runs no user code: a response to a pending call
    /// without `apply` (or an error), or to a control call. Returns false when the message needs the full path.
    private func completeInline(_ inbound: RPCInbound) -> Bool {
        guard case .single(.success(.response(let response))) = inbound else { return false }
        return complete(response, unlessApplying: true)
    }

    /// Handles one message text of `bytes` that connection `generation` read.
    func handleInbound(_ inbound: RPCInbound, bytes: Int, from connection: any MessageConnection, generation: Int) {
        switch inbound {
        case .unparsable(let error):
            report(.invalidResponse("unparsable message from the server: \(error)"))
        case .single(let message):
            if let request = handle(message, bytes: bytes, from: connection, generation: generation) {
                answer([request], batched: false, on: connection)
            }
        case .batch(let messages):
            // Our batches come back as arrays of responses; a server's batch of requests is answered with one
            // array (JSON-RPC 2.0 §6). A notification in it counts as one of the session's, of no particular size.
            let requests = messages.compactMap { handle($0, bytes: 0, from: connection, generation: generation) }
            if !requests.isEmpty { answer(requests, batched: true, on: connection) }
        }
    }

    /// Handles one message in the receive loop; returns it when it is a request to answer.
    private func handle(_ message: Result<RPCMessage, RPCInvalidMessage>, bytes: Int,
                        from connection: any MessageConnection, generation: Int) -> RPCRequest? {
        switch message {
        case .failure(let invalid):
            // An invalid answer that names a pending call (e.g. `"jsonrpc":"1.0"`) fails that call at once
            // instead of leaving it to time out (hostile servers).
            if let id = invalid.id, id != .null, completeRequest(id, with: .failure(.invalidResponse(invalid.reason))) {
                return nil
            }
            report(.invalidResponse(invalid.reason))
        case .success(.response(let response)):
            accept(response)
        case .success(.notification(let notification)):
            guard counted(bytes: bytes, from: connection, generation: generation) else { return nil }
            for observer in notificationRoutes.withLock({ $0.observers(for: notification.method) }) {
                observer(notification)
            }
            notificationHub.publish(notification)
        case .success(.request(let request)):
            eventHub.publish(.request(request))
            return request
        }
        return nil
    }

    /// Counts a notification of the session (docs/wire-protocol.md#delivery) and acknowledges when one is due.
    /// Returns false for one that a connection the client no longer reads from delivered late (a link it gave up
    /// on, still flushing after a takeover): the session hands its successor whatever the client did not count,
    /// so taking it too would deliver it twice.
    private func counted(bytes: Int, from connection: any MessageConnection, generation: Int) -> Bool {
        let outcome = state.withLock { s -> (current: Bool, acknowledge: UInt64?) in
            guard s.machine.generation == generation else { return (false, nil) }
            return (true, s.delivery.read(bytes: bytes))
        }
        guard outcome.current else {
            logger.debug("dropped a notification from a connection no longer read")
            return false
        }
        if let received = outcome.acknowledge {
            let ack = RPCMessage.notification(RPCNotification(method: KurentoConventions.acknowledge,
                                                              params: ["received": .int(Int(received))]))
            try? connection.enqueue(ack.jsonText)
        }
        return true
    }

    private func accept(_ response: RPCResponse) {
        if complete(response) { return }
        if response.id == .null, case .failure(let error) = response.outcome {
            // The server could not read one of our messages (JSON-RPC 2.0 §5: id null).
            report(.remote(error))
        } else {
            logger.debug("dropped a duplicate or late response", metadata: ["id": "\(response.id)"])
        }
    }

    /// Records the `sessionId` a Kurento server put into the response (docs/wire-protocol.md#kurento-conventions:
    /// object results, wrapped values and error data) and completes the request it answers, in one step under the
    /// client's lock; returns whether a request was waiting for it. With `unlessApplying`, a result for a call with
    /// `apply` (user code) is left pending and false returned.
    private func complete(_ response: RPCResponse, unlessApplying: Bool = false) -> Bool {
        let carrier: JSONValue? = switch response.outcome {
        case .success(let result): result
        case .failure(let error): error.data
        }
        let sessionId = carrier?["sessionId"]?.stringValue
        let succeeding = if case .success = response.outcome { true } else { false }
        let entry = state.withLock { s -> RequestTable.Entry? in
            if let sessionId { s.machine.sessionIdReceived(sessionId) }
            return s.requests.complete(response.id, succeeding: succeeding, unlessApplying: unlessApplying)
        }
        guard let entry else { return false }
        return Self.finish(entry, with: response.outcome.mapError { RPCError.remote($0) })
    }

    /// Runs the handlers off the receive loop, so a slow one never stalls it, and sends the responses.
    private func answer(_ requests: [RPCRequest], batched: Bool, on connection: any MessageConnection) {
        Task { [logger] in
            var responses: [RPCMessage] = []
            for request in requests { responses.append(.response(await self.respond(to: request))) }
            let text = batched ? RPCMessage.batchText(responses) : responses[0].jsonText
            do {
                try await connection.send(text)
            } catch {
                logger.debug("could not answer a server request", metadata: ["reason": "\(error)"])
            }
        }
    }

    private func respond(to request: RPCRequest) async -> RPCResponse {
        guard let handler = router.handler(for: request.method) else { return .error(.methodNotFound, id: request.id) }
        do {
            return .result(try await handler(request.rawParams, request) ?? .null, id: request.id)
        } catch {
            return .error(MethodRouter<RPCRequest>.errorObject(for: error) ?? .internalError("\(error)"), id: request.id)
        }
    }

    /// Logs a failure and hands it to the delegate face.
    func report(_ error: RPCError) {
        logger.warning("\(error)")
        eventHub.publish(.failure(error))
    }
}
