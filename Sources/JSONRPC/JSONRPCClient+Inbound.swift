import Logging
import SignalingSupport

extension JSONRPCClient {
    /// One serial consumer per connection (LWS-NOTES §5, Kitura-WebSocket#8): messages are handled in arrival
    /// order, so notifications are published before any later response completes its call (DESIGN §2). Each is
    /// handled in the callback queue, in order with the state changes, outside every lock (its observers and
    /// `apply` closures are user code); the loop reads the next message once it was handled.
    func startReceiving(on connection: any MessageConnection, generation: Int) {
        Task { [weak self] in
            while true {
                let text: String
                do {
                    text = try await connection.receive()
                } catch {
                    let end = error as? ConnectionEnd ?? ConnectionEnd(code: 1006, reason: "\(error)")
                    self?.connectionEnded(generation: generation, end: end)
                    return
                }
                guard let self else {
                    await connection.close(code: 1001, reason: "client released")
                    return
                }
                await self.callbacks.perform { self.handleInbound(text, from: connection) }
            }
        }
    }

    func handleInbound(_ text: String, from connection: any MessageConnection) {
        switch RPCCodec.decode(text, maxDepth: configuration.maxDepth) {
        case .unparsable(let error):
            report(.invalidResponse("unparsable message from the server: \(error)"))
        case .single(let message):
            if let request = handle(message) { answer([request], batched: false, on: connection) }
        case .batch(let messages):
            // Our batches come back as arrays of responses; a server's batch of requests is answered with one
            // array (JSON-RPC 2.0 §6).
            let requests = messages.compactMap { handle($0) }
            if !requests.isEmpty { answer(requests, batched: true, on: connection) }
        }
    }

    /// Handles one message in the receive loop; returns it when it is a request to answer.
    private func handle(_ message: Result<RPCMessage, RPCInvalidMessage>) -> RPCRequest? {
        switch message {
        case .failure(let invalid):
            // An invalid answer that names a pending call (e.g. `"jsonrpc":"1.0"`) fails that call at once
            // instead of leaving it to time out (issue 8: hostile servers).
            if let id = invalid.id, id != .null, pending.complete(id, with: .failure(.invalidResponse(invalid.reason))) {
                return nil
            }
            report(.invalidResponse(invalid.reason))
        case .success(.response(let response)):
            accept(response)
        case .success(.notification(let notification)):
            for observer in notificationObservers.withLock({ $0 }) { observer(notification) }
            notificationHub.publish(notification)
        case .success(.request(let request)):
            eventHub.publish(.request(request))
            return request
        }
        return nil
    }

    private func accept(_ response: RPCResponse) {
        recordSessionId(from: response)
        let outcome = response.outcome.mapError { RPCError.remote($0) }
        if pending.complete(response.id, with: outcome) || control.complete(response.id, with: outcome) { return }
        if response.id == .null, case .failure(let error) = response.outcome {
            // The server could not read one of our messages (JSON-RPC 2.0 §5: id null).
            report(.remote(error))
        } else {
            logger.debug("dropped a duplicate or late response", metadata: ["id": "\(response.id)"])
        }
    }

    /// PROTOCOL §0: Kurento servers put `sessionId` into object results, wrapped values and error data.
    private func recordSessionId(from response: RPCResponse) {
        let carrier: JSONValue? = switch response.outcome {
        case .success(let result): result
        case .failure(let error): error.data
        }
        guard let sessionId = carrier?["sessionId"]?.stringValue else { return }
        state.withLock { $0.sessionId = sessionId }
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
