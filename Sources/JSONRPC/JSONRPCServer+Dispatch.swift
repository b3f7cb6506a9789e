import CoreMetrics
import Logging
import SignalingSupport

extension JSONRPCServer {
    /// What one inbound message element needs, decided in arrival order by the receive loop.
    enum Work: Sendable {
        /// Answer at once with this response.
        case reply(RPCResponse)
        /// Answer, then close the connection (closeSession).
        case replyThenClose(RPCResponse)
        /// Run the handler; a `ticket` records the response for retries of the request.
        case run(RPCRequest, ServerSession, ticket: ResponseCache.Ticket?)
        /// A copy of a running request: answer with that run's response.
        case attach(OneShot<RPCResponse?>)
        /// Run a notification handler.
        case notification(RPCNotification, ServerSession)
        /// Nothing to answer (a response to a server→client request, or a finished duplicate without response).
        case nothing
    }

    /// Decodes one inbound message and starts its work, in arrival order. Suspends while the connection's
    /// handlers are at their limit (``Configuration/maxInFlightPerConnection``): the connection then stops reading.
    func receive(_ text: String, binding: ConnectionBinding, current: LockedValue<ServerSession>,
                 inflight: InFlightWork) async {
        let connection = binding.connection
        switch RPCCodec.decode(text, maxDepth: configuration.maxDepth) {
        case .unparsable(let error):
            logger.log(.debug, "unparsable message", metadata: ["reason": .bounded("\(error)")], throttledBy: logThrottle)
            send(counted(.error(.parseError(), id: .null), metrics?.invalid), on: connection)
        case .batch([]):
            send(counted(.error(.invalidRequest(), id: .null), metrics?.invalid), on: connection)
        case .batch(let elements) where elements.count > configuration.maxBatchLength:
            // docs/wire-protocol.md#limits: refused whole, before any of it is looked at further.
            logger.log(.debug, "batch over the limit", metadata: ["length": "\(elements.count)"], throttledBy: logThrottle)
            let detail = "a batch of \(elements.count) exceeds the limit of \(configuration.maxBatchLength)"
            send(counted(.error(.invalidRequest(detail), id: .null), metrics?.invalid), on: connection)
        case .single(let element):
            await start(plan(element, binding: binding, current: current), on: connection, inflight: inflight)
        case .batch(let elements):
            await startBatch(planBatch(elements, binding: binding, current: current), on: connection, inflight: inflight)
        }
    }

    /// `response`, counted by `metrics` (docs/operations.md#metrics) when they are on.
    private func counted(_ response: RPCResponse, _ metrics: MethodMetrics?) -> RPCResponse {
        metrics?.count(response)
        return response
    }

    /// Classifies a single message. Synchronous, so duplicates and built-ins are decided in wire order.
    func plan(_ element: Result<RPCMessage, RPCInvalidMessage>, binding: ConnectionBinding,
              current: LockedValue<ServerSession>) -> Work {
        switch prepare(element, binding: binding, current: current) {
        case .ready(let work): work
        case .lookup(let request, let session): work(for: session.responses.begin(request), request, session)
        }
    }

    /// Classifies the elements of a batch. Its requests are looked up in the response cache together (per
    /// session), so that entries of one batch are never taken for retries of each other.
    func planBatch(_ elements: [Result<RPCMessage, RPCInvalidMessage>], binding: ConnectionBinding,
                   current: LockedValue<ServerSession>) -> [Work] {
        let prepared = elements.map { prepare($0, binding: binding, current: current) }
        var works = [Work](repeating: .nothing, count: prepared.count)
        var lookups: [ObjectIdentifier: (session: ServerSession, indices: [Int], requests: [RPCRequest])] = [:]
        for (index, item) in prepared.enumerated() {
            switch item {
            case .ready(let work): works[index] = work
            case .lookup(let request, let session):
                lookups[ObjectIdentifier(session), default: (session, [], [])].indices.append(index)
                lookups[ObjectIdentifier(session)]!.requests.append(request)
            }
        }
        for (session, indices, requests) in lookups.values {
            for (index, (lookup, request)) in zip(indices, zip(session.responses.begin(requests), requests)) {
                works[index] = work(for: lookup, request, session)
            }
        }
        return works
    }

    /// One element, classified up to the response-cache lookup.
    enum Prepared {
        case ready(Work)
        /// A request with an id, to look up in its session's response cache.
        case lookup(RPCRequest, ServerSession)
    }

    private func work(for lookup: ResponseCache.Lookup, _ request: RPCRequest, _ session: ServerSession) -> Work {
        switch lookup {
        case .new(let ticket): .run(request, session, ticket: ticket)
        case .running(let run): .attach(run)
        case .finished(let response?): .reply(response)
        case .finished(nil): .nothing
        }
    }

    private func prepare(_ element: Result<RPCMessage, RPCInvalidMessage>, binding: ConnectionBinding,
                         current: LockedValue<ServerSession>) -> Prepared {
        let session = current.withLock { $0 }
        switch element {
        case .failure(let invalid):
            logger.log(.debug, "invalid request", metadata: ["reason": .bounded(invalid.reason)], throttledBy: logThrottle)
            return .ready(.reply(counted(.error(.invalidRequest(), id: invalid.id ?? .null), metrics?.invalid)))
        case .success(.response(let response)):
            if !session.completeRequest(response.id, with: response.outcome.mapError { .remote($0) }) {
                logger.log(.debug, "dropped a late or unknown response", metadata: ["id": .bounded("\(response.id)")],
                           throttledBy: logThrottle)
            }
            return .ready(.nothing)
        case .success(.notification(let notification)):
            if configuration.conventions == .kurento, notification.method == KurentoConventions.acknowledge {
                // docs/wire-protocol.md#delivery: released here, in wire order, never seen by the application.
                if let received = Self.received(in: notification.params) { session.acknowledge(received) }
                return .ready(.nothing)
            }
            return .ready(.notification(notification, session))
        case .success(.request(let request)):
            if configuration.conventions == .kurento, let builtIn = builtIn(request, binding: binding, current: current) {
                if let counter = metrics?.builtIn(request.method) {
                    switch builtIn {
                    case .reply(let response), .replyThenClose(let response): counter.count(response)
                    default: break
                    }
                }
                return .ready(builtIn)
            }
            guard request.id != .null else { return .ready(.run(request, session, ticket: nil)) }
            return .lookup(request, session)
        }
    }

    /// The built-ins of docs/wire-protocol.md#built-ins, handled before the application's router.
    private func builtIn(_ request: RPCRequest, binding: ConnectionBinding, current: LockedValue<ServerSession>) -> Work? {
        let session = current.withLock { $0 }
        switch request.method {
        case KurentoConventions.ping:
            // `{"value":"pong"}`, with sessionId only when the request carried one.
            pinged(session, binding: binding, params: request.params)
            if let received = Self.received(in: request.params) { session.acknowledge(received) }
            var result: JSONValue = ["value": "pong"]
            if let sid = request.params?["sessionId"] { result = ["value": "pong", "sessionId": sid] }
            return .reply(.result(result, id: request.id))
        case KurentoConventions.connect:
            // docs/wire-protocol.md#delivery: `received` says the client counts and acknowledges notifications.
            let received = Self.received(in: request.params)
            guard let wanted = request.params?["sessionId"]?.stringValue else {
                if received != nil { session.acknowledgesDelivery() }
                return .reply(.result(connectResult("OK", session: session), id: request.id))
            }
            guard let resumed = self.session(id: wanted) else {
                logger.log(.info, "connect to an unknown session", metadata: ["session": .bounded(SecureID.redacted(wanted))],
                           throttledBy: logThrottle)
                return .reply(.error(KurentoConventions.reconnectionError, id: request.id))
            }
            // docs/architecture.md#identity: the id alone is no key; the connection must speak for the session's
            // principal. Refused exactly as an unknown session, so the answer does not even tell that it exists.
            guard resumed === session || resumed.admits(binding) else {
                logger.log(.info, "connect to a session of another principal refused",
                           metadata: ["session": .string(resumed.redactedID)], throttledBy: logThrottle)
                return .reply(.error(KurentoConventions.reconnectionError, id: request.id))
            }
            if resumed === session {
                if received != nil { session.acknowledgesDelivery() }
            } else {
                // docs/wire-protocol.md#sessions: a connect from a new socket takes the session over; the old socket
                // gets 4409. The new one first gets, in order, what the client has not read.
                switch resumed.attach(binding, received: received) {
                case .failure(let refusal):
                    // What the client lacks is gone: it must start again, as after an expired session.
                    logger.log(.info, "resume refused: \(refusal)", metadata: ["session": .string(resumed.redactedID)],
                               throttledBy: logThrottle)
                    endSession(resumed)
                    return .reply(.error(KurentoConventions.reconnectionError, id: request.id))
                case .success(let replaced?) where replaced !== binding:
                    metrics?.closed(.takeover)
                    Task { await replaced.connection.close(code: 4409, reason: "session taken over") }
                case .success:
                    break
                }
                metrics?.resumes.increment()
                current.withLock { $0 = resumed }
                rearmWatchdog(resumed, binding: binding)
                endSession(session)
                sessionResumed(resumed)
            }
            // docs/wire-protocol.md#stock-kurento: "capabilities" tells our clients what a stock server does not do.
            return .reply(.result(connectResult("reconnection successful", session: resumed), id: request.id))
        case KurentoConventions.closeSession:
            endSession(session)
            return .replyThenClose(.result("bye", id: request.id))
        default:
            return nil
        }
    }

    /// A `connect` result: `value`, `sessionId`, `capabilities` and the ``Configuration/advertised`` members.
    /// ``ServerCapabilities/replay`` is listed only for a session whose client acknowledges: only then is it true.
    private func connectResult(_ value: String, session: ServerSession) -> JSONValue {
        var result = configuration.advertised
        result["value"] = .string(value)
        result["sessionId"] = .string(session.id)
        var capabilities = capabilities
        if !session.isAcknowledged { capabilities.remove(.replay) }
        result["capabilities"] = capabilities.advertised
        return .object(result)
    }

    /// The `received` count of a `connect`, `ping` or `rpc.ack` (docs/wire-protocol.md#delivery), if it has one.
    static func received(in params: JSONValue?) -> UInt64? {
        guard let count = params?["received"]?.intValue, count >= 0 else { return nil }
        return UInt64(count)
    }

    func execute(_ request: RPCRequest, session: ServerSession,
                 _ handler: MethodRouter<RPCRequestContext>.Handler?) async -> RPCResponse {
        guard let handler else {
            return .error(shape(.methodNotFound, session: session), id: request.id)
        }
        let context = RPCRequestContext(session: session, method: request.method, id: request.id)
        do {
            return response(to: request, session: session, .success(try await handler(request.rawParams, context)))
        } catch {
            return response(to: request, session: session, .failure(error))
        }
    }

    /// Runs a synchronous handler (``MethodRouter/registerInline(_:_:)``) right here, in the receive loop.
    func executeInline(_ request: RPCRequest, session: ServerSession,
                       _ handler: MethodRouter<RPCRequestContext>.InlineHandler) -> RPCResponse {
        let context = RPCRequestContext(session: session, method: request.method, id: request.id)
        do {
            return response(to: request, session: session, .success(try handler(request.rawParams, context)))
        } catch {
            return response(to: request, session: session, .failure(error))
        }
    }

    /// The response to `request` whose handler returned or threw `outcome`, shaped by the conventions.
    private func response(to request: RPCRequest, session: ServerSession,
                          _ outcome: Result<JSONValue?, any Error>) -> RPCResponse {
        switch outcome {
        case .success(let value):
            switch configuration.conventions {
            case .kurento: return .result(KurentoConventions.result(value, sessionId: session.id), id: request.id)
            case .plain: return .result(value ?? .null, id: request.id)
            }
        case .failure(let error):
            if let object = MethodRouter<RPCRequestContext>.errorObject(for: error) {
                return .error(shape(object, session: session), id: request.id)
            }
            logger.error("handler failed", metadata: ["method": .bounded(request.method), "error": .bounded("\(error)")])
            switch configuration.conventions {
            // docs/wire-protocol.md#kurento-conventions: an uncaught exception is `code -1, "<Class>:<msg>"`, without
            // sessionId (and we send no stack trace).
            case .kurento: return .error(RPCErrorObject(code: -1, message: "\(type(of: error)):\(error)"), id: request.id)
            case .plain: return .error(.internalError(), id: request.id)
            }
        }
    }

    private func shape(_ error: RPCErrorObject, session: ServerSession) -> RPCErrorObject {
        configuration.conventions == .kurento ? KurentoConventions.error(error, sessionId: session.id) : error
    }

    func runNotification(_ notification: RPCNotification, session: ServerSession,
                         _ handler: MethodRouter<RPCRequestContext>.Handler?) async {
        guard let handler else {
            logger.log(.debug, "notification without handler", metadata: ["method": .bounded(notification.method)],
                       throttledBy: logThrottle)
            return
        }
        let context = RPCRequestContext(session: session, method: notification.method, id: nil)
        do {
            _ = try await handler(notification.rawParams, context)
        } catch {
            notificationFailed(notification, error)
        }
    }

    /// Runs a notification's synchronous handler right here, in the receive loop.
    func runNotificationInline(_ notification: RPCNotification, session: ServerSession,
                               _ handler: MethodRouter<RPCRequestContext>.InlineHandler) {
        do {
            let context = RPCRequestContext(session: session, method: notification.method, id: nil)
            _ = try handler(notification.rawParams, context)
        } catch {
            notificationFailed(notification, error)
        }
    }

    private func notificationFailed(_ notification: RPCNotification, _ error: any Error) {
        logger.warning("notification handler failed",
                       metadata: ["method": .bounded(notification.method), "error": .bounded("\(error)")])
    }

    func send(_ response: RPCResponse, on connection: any MessageConnection) {
        sendText(response.jsonText, on: connection)
    }

    /// Queues `text` on the connection without waiting for the write (in order with the notifications handed to
    /// it before). A reply lost with its connection is recovered by the client's re-send after a resume.
    func sendText(_ text: String, on connection: any MessageConnection) {
        do {
            try connection.enqueue(text)
        } catch {
            logger.debug("could not send a response", metadata: ["reason": "\(error)"])
        }
    }
}

extension JSONRPCServer {
    /// What this server advertises in its `connect` results: ``ServerCapabilities/replay`` always (sessions keep an
    /// outbox), ``ServerCapabilities/dedupe`` while it remembers responses.
    public var capabilities: ServerCapabilities {
        let remembers = configuration.maxRememberedResponses > 0 && configuration.duplicateRetention > .zero
        return remembers ? [.dedupe, .replay] : [.replay]
    }
}
