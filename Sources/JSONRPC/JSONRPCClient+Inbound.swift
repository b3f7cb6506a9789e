import Logging
import SignalingSupport

extension JSONRPCClient {
    /// One serial consumer per connection (LWS-NOTES §5, Kitura-WebSocket#8): messages are handled in arrival
    /// order, so notifications are published before any later response completes its call (DESIGN §2).
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
                self.handleInbound(text, from: connection)
            }
        }
    }

    func handleInbound(_ text: String, from connection: any MessageConnection) {
        switch RPCCodec.decode(text, maxDepth: configuration.maxDepth) {
        case .unparsable(let error):
            report(.invalidResponse("unparsable message from the server: \(error)"))
        case .single(let message):
            handle(message, from: connection)
        case .batch(let messages):
            // Our batches come back as arrays of responses. Requests inside a server's batch are answered one by
            // one, which JSON-RPC peers accept (each response carries its id).
            for message in messages { handle(message, from: connection) }
        }
    }

    private func handle(_ message: Result<RPCMessage, RPCInvalidMessage>, from connection: any MessageConnection) {
        switch message {
        case .failure(let invalid):
            report(.invalidResponse(invalid.reason))
        case .success(.response(let response)):
            accept(response)
        case .success(.notification(let notification)):
            notificationHub.publish(notification)
        case .success(.request(let request)):
            answer(request, on: connection)
        }
    }

    private func accept(_ response: RPCResponse) {
        recordSessionId(from: response)
        let outcome = response.outcome.mapError { RPCError.remote($0) }
        if pending.complete(response.id, with: outcome) { return }
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

    private func answer(_ request: RPCRequest, on connection: any MessageConnection) {
        eventHub.publish(.request(request))
        let handler = router.handler(for: request.method)
        // Each handler runs in its own task so a slow one never stalls the receive loop.
        Task { [logger] in
            let outcome: Result<JSONValue, RPCErrorObject>
            if let handler {
                do {
                    outcome = .success(try await handler(request.rawParams, request) ?? .null)
                } catch {
                    outcome = .failure(MethodRouter<RPCRequest>.errorObject(for: error) ?? .internalError("\(error)"))
                }
            } else {
                outcome = .failure(.methodNotFound)
            }
            do {
                try await connection.send(RPCResponse(id: request.id, outcome: outcome).jsonText)
            } catch {
                logger.debug("could not answer a server request", metadata: ["method": "\(request.method)"])
            }
        }
    }

    /// Logs a failure and hands it to the delegate face.
    func report(_ error: RPCError) {
        logger.warning("\(error)")
        eventHub.publish(.failure(error))
    }
}
