import CoreMetrics
import Logging
import SignalingSupport

extension JSONRPCClient {
    /// How one reconnected connection's resume ended.
    private enum ResumeOutcome {
        /// Live again (resumed, or a fresh session).
        case live
        /// This connection failed; try again unless the close code forbids it.
        case failed(ConnectionEnd)
        /// A newer close or reconnection took over.
        case superseded
    }

    /// The reconnect loop (docs/architecture.md#reconnect): backoff with jitter, capped by the server's window and the
    /// budget; each attempt opens a connection and resumes. Runs until live, given up, or cancelled by
    /// ``close(code:reason:)``.
    func reconnect(after loss: ConnectionEnd, lostAt: ClockInstant, backoff: Backoff, epoch: Int) async {
        var attempt = 0
        var last = loss
        // Attempts that failed to connect: when the budget runs out during one more, the message still says why the
        // others failed ("refused"), not only that the last one was cut short.
        var failedConnects = 0
        while true {
            attempt += 1
            let elapsed = clock.now - lostAt
            guard let delay = backoff.delay(attempt: attempt, elapsed: elapsed, unit: nextJitterUnit()) else { break }
            if attempt > 1 {
                guard transition({ $0.machine.attemptStarted(epoch: epoch, attempt: attempt) }) else { return }
            }
            logger.debug("reconnect attempt", metadata: ["attempt": "\(attempt)", "delay": "\(delay)"])
            do { try await clock.sleep(for: delay) } catch { return }
            guard isCurrent(epoch) else { return }
            let connection: any MessageConnection
            switch await open(within: backoff.budget - (clock.now - lostAt)) {
            case .connected(let opened):
                connection = opened
            case .failed(let error):
                if Task.isCancelled { return }
                last = error as? ConnectionEnd ?? ConnectionEnd(code: 1006, reason: "connect failed: \(error)")
                if !Self.reconnects(after: last) {
                    // Refused at the upgrade (HTTP 401/403): final, as a 4401/4403 close is.
                    giveUp(last, epoch: epoch)
                    return
                }
                failedConnects += 1
                continue
            case .timedOut:
                if failedConnects == 0 {
                    last = ConnectionEnd(code: 1006, reason: "the connect attempt outlasted the reconnect budget")
                }
                continue
            }
            switch await resume(on: connection, loss: loss, epoch: epoch) {
            case .live: return
            case .superseded:
                Task { await connection.close(code: 1001, reason: "superseded") }
                return
            case .failed(let end):
                last = end
                if !Self.reconnects(after: end) {
                    giveUp(ConnectionEnd(code: end.code, reason: end.reason), epoch: epoch)
                    return
                }
            }
        }
        let attempts = failedConnects > 0 ? " (\(failedConnects) attempt(s) could not connect)" : ""
        giveUp(ConnectionEnd(code: last.code,
                             reason: "gave up reconnecting after \(backoff.budget)\(attempts): \(last.reason)"),
               epoch: epoch)
    }

    private enum Attempt: Sendable {
        case connected(any MessageConnection)
        case failed(any Error)
        case timedOut
    }

    /// Opens a connection, giving up (and cancelling the attempt) once `limit` has passed: the budget bounds a
    /// handshake that hangs too.
    private func open(within limit: Duration) async -> Attempt {
        guard limit > .zero else { return .timedOut }
        return await withTaskGroup(of: Attempt.self) { group in
            group.addTask {
                do { return .connected(try await self.transport.connect()) } catch { return .failed(error) }
            }
            group.addTask {
                do { try await self.clock.sleep(for: limit) } catch { return .failed(error) }
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            for await late in group {
                // The attempt opened just as the limit passed: nobody will use it.
                if case .connected(let unused) = late { await unused.close(code: 1001, reason: "too late") }
            }
            return first
        }
    }

    /// Makes `connection` the client's connection: `connect{sessionId}` when there is a session to resume, then
    /// the pending requests re-sent with their ids (docs/architecture.md#resume) when the server dedupes and
    /// ``Configuration/resendsOnResume`` allows, else they fail with ``RPCError/connectionClosed(_:)``; on a refusal
    /// (40007) they fail the same way and the client goes on as a fresh session.
    private func resume(on connection: any MessageConnection, loss: ConnectionEnd, epoch: Int) async -> ResumeOutcome {
        // What was counted is read with the switch to the new connection: whatever the old one still delivers is
        // dropped from here on, and the server hands the new one everything after it (docs/wire-protocol.md#delivery).
        let registered = state.withLock { s -> (Int, String?, UInt64)? in
            s.machine.handshakeStarted(epoch: epoch, connection: connection).map { ($0.0, $0.1, s.delivery.received) }
        }
        guard let (generation, sessionId, received) = registered else { return .superseded }
        startReceiving(on: connection, generation: generation)
        var resumed = false
        var capabilities = ServerCapabilities()
        if let sessionId {
            var params: [String: JSONValue] = ["sessionId": .string(sessionId)]
            if configuration.acknowledgesNotifications { params["received"] = .int(Int(received)) }
            switch await controlCall(KurentoConventions.connect, params: .object(params),
                                     on: connection, timeout: configuration.requestTimeout) {
            case .success(let result):
                resumed = true
                capabilities = ServerCapabilities(advertisedIn: result).union(configuration.assumedCapabilities)
                state.withLock { s in
                    s.serverCapabilities = capabilities
                    s.delivery.serverAcknowledges = capabilities.contains(.replay)
                }
            case .failure(.remote(let refusal)):
                logger.info("the server no longer knows the session; continuing as a new one",
                            metadata: ["code": "\(refusal.code)"])
            case .failure(.connectionClosed(let end)):
                return .failed(end ?? ConnectionEnd(code: 1006, reason: "lost while resuming"))
            case .failure(let other):
                abandonHandshake(generation: generation, connection: connection)
                return .failed(ConnectionEnd(code: 1006, reason: "resume failed: \(other)"))
            }
        }
        let lostIDs = state.withLock { $0.machine.resumeAnswered(epoch: epoch, resumed: resumed) }
        if resumed, configuration.resendsOnResume, capabilities.contains(.dedupe) {
            // Same ids: the server's dedupe answers a request it already ran from its cache (not an attempt).
            let resend = withRequests { $0.pendingCalls }.filter { lostIDs.contains($0.id) }.sorted { Self.order($0.id) < Self.order($1.id) }
            for message in resend {
                do { try await connection.send(message.text) } catch { break }
            }
        } else if resumed {
            // docs/wire-protocol.md#stock-kurento: a server that does not dedupe may have run them; running them again
            // could publish twice. Their outcome is unknown to us, so they fail as lost with the connection.
            let lost = Set(lostIDs)
            for id in withRequests({ $0.callIDs }) where lost.contains(id) { completeRequest(id, with: .failure(.connectionClosed(loss))) }
        } else {
            failRequests(.call, with: .connectionClosed(loss))
        }
        let waiters = transition { s -> [CheckedContinuation<any MessageConnection, any Error>]? in
            guard s.machine.handshakeCompleted(epoch: epoch, generation: generation, resumed: resumed) else { return nil }
            s.reconnecting = nil
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        guard let waiters else {
            return isCurrent(epoch) ? .failed(ConnectionEnd(code: 1006, reason: "lost while resuming")) : .superseded
        }
        logger.info(resumed ? "resumed the session" : "reconnected as a new session")
        if !resumed { openSession(on: connection, generation: generation) }
        (resumed ? metrics?.resumed : metrics?.fresh)?.increment()
        eventHub.publish(.connected)
        for waiter in waiters { waiter.resume(returning: connection) }
        startHeartbeat(generation: generation)
        return .live
    }

    /// Opens the session of a new connection (``Configuration/acknowledgesNotifications``): `connect {"received": 0}`,
    /// queued at once, ahead of anything sent after it, whose answer says what the server does. Not awaited here: the
    /// server reads it before anything sent after it, and until its answer arrives the client only counts. Returns
    /// its outcome (nil without a session opening), which the first ``connect()`` waits for a while.
    @discardableResult
    func openSession(on connection: any MessageConnection, generation: Int) -> OneShot<RequestTable.Outcome>? {
        state.withLock { $0.delivery.startSession() }
        guard configuration.acknowledgesNotifications else { return nil }
        let opening = startControlCall(KurentoConventions.connect, params: ["received": 0], on: connection,
                                       timeout: configuration.requestTimeout)
        Task { [weak self] in
            guard case .success(let result) = await opening.wait(), let self else { return }
            let capabilities = ServerCapabilities(advertisedIn: result).union(self.configuration.assumedCapabilities)
            self.state.withLock { s in
                guard s.machine.generation == generation else { return }
                s.serverCapabilities = capabilities
                s.delivery.serverAcknowledges = capabilities.contains(.replay)
            }
        }
        return opening
    }

    /// Drops a handshake connection that did not answer.
    private func abandonHandshake(generation: Int, connection: any MessageConnection) {
        state.withLock { $0.machine.handshakeAbandoned(generation: generation) }
        Task { await connection.close(code: 1001, reason: "no reply to connect") }
    }

    /// The reconnection ended without a connection: everything waiting fails with `end`.
    private func giveUp(_ end: ConnectionEnd, epoch: Int) {
        let waiters = transition { s -> [CheckedContinuation<any MessageConnection, any Error>]? in
            guard s.machine.gaveUp(epoch: epoch, end: end) else { return nil }
            s.reconnecting = nil
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        guard let waiters else { return }
        metrics?.gaveUp.increment()
        logger.warning("reconnecting failed", metadata: ["reason": "\(end)"])
        failRequests(.call, with: .closed(end))
        for waiter in waiters { waiter.resume(throwing: RPCError.closed(end)) }
        eventHub.publish(.failure(.closed(end)))
    }

    /// Our ids are sequential numbers: re-sends keep the original order.
    private static func order(_ id: RequestID) -> Int { if case .number(let n) = id { n } else { 0 } }

    private func isCurrent(_ epoch: Int) -> Bool { state.withLock { $0.machine.isCurrent(epoch: epoch) } }

    /// A uniform number in 0..<1 from the jitter generator.
    private func nextJitterUnit() -> Double {
        jitter.withLock { Double($0.next() >> 11) / Double(UInt64(1) << 53) }
    }

    /// Waits in the bounded queue until the reconnection in progress is live (returns its connection) or ends.
    /// - Throws: ``RPCError/connectionClosed(_:)`` when the reconnection fails or the queue is full;
    ///   ``RPCError/cancelled`` when the waiting task is cancelled.
    func waitForReconnection() async throws -> any MessageConnection {
        let limit = configuration.reconnect.backoff?.queueLimit ?? 0
        let key = state.withLock { s -> UInt64 in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any MessageConnection, any Error>) in
                let ready = state.withLock { s -> Result<any MessageConnection, RPCError>? in
                    switch s.machine.phase {
                    case .open(let connection, _): return .success(connection)
                    case .reconnecting: break
                    case .idle(let end): return .failure(.closed(end))
                    case .connecting: return .failure(.connectionClosed(nil))
                    }
                    if Task.isCancelled { return .failure(.cancelled) }
                    guard s.waiters.count < limit else {
                        return .failure(.connectionClosed(ConnectionEnd(
                            code: 1006, reason: "reconnecting, and \(limit) sends are already waiting")))
                    }
                    s.waiters[key] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
            waiter?.resume(throwing: RPCError.cancelled)
        }
    }

    /// Sends one of the client's own requests (`ping`, `connect`) on `connection`, outside the queue, without
    /// retries, and waits for its outcome.
    func controlCall(_ method: String, params: JSONValue?, on connection: any MessageConnection,
                     timeout: Duration) async -> RequestTable.Outcome {
        await startControlCall(method, params: params, on: connection, timeout: timeout).wait()
    }

    /// Registers and queues one of the client's own requests at once (in order with whatever is sent after it), and
    /// returns its outcome to wait for.
    func startControlCall(_ method: String, params: JSONValue?, on connection: any MessageConnection,
                          timeout: Duration) -> OneShot<RequestTable.Outcome> {
        let id = RequestID.number(-controlIDs.next())
        let text = RPCRequest(id: id, method: method, params: params).jsonText
        // The deadline runs from now, not from the write: a choked socket that never takes the ping is a lost
        // connection within one interval, not after the transport gives up (40 s).
        let outcome = registerRequest(id, method: method, text: text, kind: .control, timeout: timeout, retries: 0) { _ in }
        do {
            try connection.enqueue(text) { [weak self] end in
                if let end { self?.completeRequest(id, with: .failure(.connectionClosed(end))) }
            }
        } catch {
            completeRequest(id, with: .failure(.connectionClosed(error as? ConnectionEnd)))
        }
        return outcome
    }
}
