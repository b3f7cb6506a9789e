import Logging
import SignalingSupport
import Synchronization

/// The JSON-RPC 2.0 client endpoint: the NBMJSONRPCClient counterpart (docs/wire-protocol.md#counterparts), over any
/// ``MessageTransport``.
///
/// - Every call completes exactly once: with its result, the peer's error, a timeout after the retries
///   (``Configuration/retries`` re-sends of the *same id* with a doubled timeout), cancellation, or
///   ``RPCError/connectionClosed(_:)`` when the connection ends for good.
/// - Lifecycle (docs/architecture.md#lifecycle): a `ping` heartbeat (``Configuration/heartbeat``) detects a dead
///   connection; a drop reconnects with backoff (``Configuration/reconnect``) and resumes the session with
///   `connect{sessionId}`, re-sending pending requests with their ids. Close codes 1000 (from the
///   server), 1008, 4401, 4403 and 4409 and a user ``close(code:reason:)`` never reconnect.
/// - An auth refusal is final: an HTTP 401/403 answer to the upgrade or a 4401/4403 close fails ``connect()``, the
///   pending calls and every later call with ``RPCError/unauthorized(_:)`` or ``RPCError/forbidden(_:)``, and nothing
///   dials again (not even ``Configuration/autoConnect``).
/// - Server→client requests go to handlers registered with ``handle(_:_:)-(_,(JSONValue?)->JSONValue)``; an unknown method gets -32601.
/// - ``notifications`` and ``connectionStates`` are multicast (docs/architecture.md#event-streams). A call's result is
///   delivered only after every notification that arrived before its response was published.
/// - The async API is the implementation; the delegate (``delegate``) and completion-closure faces are thin
///   adapters. Delegate methods, completions, observers and `apply` closures run on no particular thread and never
///   under a lock of the client: each may call the client back.
public final class JSONRPCClient: Sendable {
    /// What the delegate face (and anyone else inside the module) observes, in wire order.
    enum Event: Sendable {
        case connected
        case disconnected(ConnectionEnd?)
        case request(RPCRequest)
        case failure(RPCError)
    }

    /// Everything the client changes under its lock: the lifecycle (``ClientConnectionMachine``) and the I/O
    /// handles that go with it.
    struct State {
        var machine: ClientConnectionMachine<any MessageConnection>
        /// The first connect, shared by its callers; set while the machine is `connecting`.
        var connecting: SharedAttempt?
        /// The reconnect loop; set while the machine is `reconnecting`.
        var reconnecting: Task<Void, Never>?
        /// Sends waiting for the reconnection (a bounded queue, ``Backoff/queueLimit``).
        var waiters: [UInt64: CheckedContinuation<any MessageConnection, any Error>] = [:]
        var nextWaiter: UInt64 = 0
        var heartbeatTimer: (any TimerHandle)?
        var rtt: (last: Duration, smoothed: Duration)?
        /// What the server said in its last `connect` result (the session's opening one, or the last resume's);
        /// `nil` before any.
        var serverCapabilities: ServerCapabilities?
        /// What the client counted of the session's notifications (docs/wire-protocol.md#delivery).
        var delivery = ClientDelivery()
        /// The calls and control requests (`ping`, `connect`) sent and not answered, with their one deadline timer.
        var requests = RequestTable()
    }

    /// The settings this client was made with.
    public let configuration: Configuration
    let transport: any MessageTransport
    let state: LockedValue<State>
    let delegateFeeder = DelegateFeeder<any JSONRPCClientDelegate>()
    /// The ids of calls: 0, 1, 2, …
    let ids = SequentialIDs()
    /// The ids of the client's own requests (`ping`, `connect`): -1, -2, …, so that a caller's ids do not depend on
    /// when the heartbeat ran or whether a session was opened first.
    let controlIDs = SequentialIDs(startingAt: 1)
    let jitter: LockedValue<SeededRandomNumberGenerator>
    let router = MethodRouter<RPCRequest>()
    let notificationHub: Broadcast<RPCNotification>
    let stateHub = Broadcast<ConnectionState>(bufferLimit: 64, replaysLatest: true)
    /// The delegate face's events; their buffer is the 4,096 that ``JSONRPCClientDelegate`` documents.
    let eventHub = Broadcast<Event>(bufferLimit: 4096)
    /// The notification observers, catch-all and by namespace.
    let notificationRoutes = LockedValue(NotificationRoutes())
    let stateObservers = LockedValue<[@Sendable (ConnectionState) -> Void]>([])
    /// Where observers, `apply` closures and the publishing of inbound messages and state changes run: one at a
    /// time, in order, outside every lock.
    let callbacks = CallbackQueue()
    /// The instruments, when ``Configuration/metrics`` is enabled.
    let metrics: ClientMetrics?
    /// Spaces the requests (``paceRequests(perSecond:)``); off by default.
    let pacer = RequestPacer()
    /// Notifications typed subscribers skipped (``undecodableNotificationCount``).
    let undecodableNotifications = LockedValue(0)
    /// Messages read from the server on any connection: a ping unanswered while this grows has a slow server, not a
    /// lost link (docs/architecture.md#heartbeat).
    let messagesRead = Atomic<UInt64>(0)
    var logger: Logger { configuration.logger }
    var clock: any SignalingClock { configuration.clock }

    /// Creates a client that opens its connections through `transport`. Nothing is sent until ``connect()``
    /// or, with ``Configuration/autoConnect``, the first call.
    public init(transport: any MessageTransport, configuration: Configuration = .init()) {
        self.transport = transport
        self.configuration = configuration
        state = LockedValue(State(machine: ClientConnectionMachine(reconnects: configuration.reconnect != .off,
                                                                   autoConnect: configuration.autoConnect)))
        jitter = LockedValue(SeededRandomNumberGenerator(seed: configuration.reconnect.backoff?.seed ?? .random(in: 0...UInt64.max)))
        notificationHub = Broadcast(bufferLimit: configuration.notificationBufferLimit)
        metrics = ClientMetrics(configuration.metrics)
        stateHub.publish(.disconnected(nil))
    }

    deinit {
        // Nobody can call close() any more: close the connection so the receive loop (which holds it) ends too.
        let (connections, timer, requests, requestTimer) = state.withLock {
            ($0.machine.connections, $0.heartbeatTimer, $0.requests.removeAll(), $0.requests.disarm())
        }
        timer?.cancel()
        requestTimer?.cancel()
        for connection in connections {
            Task { await connection.close(code: 1001, reason: "client released") }
        }
        for entry in requests { entry.outcome.fulfill(.failure(.cancelled)) }
        notificationHub.finish()
        stateHub.finish()
        eventHub.finish()
    }

    /// A new subscriber to the server's notifications, in wire order, from this moment on. Each access is a new
    /// subscriber with a bounded buffer (``Configuration/notificationBufferLimit``): it gets every notification,
    /// or, when it falls further behind, the ones it buffered and then ``BroadcastOverflow``, once, ending it.
    public var notifications: Broadcast<RPCNotification>.Subscription { notificationHub.subscribe() }

    /// A new subscriber to connection-state changes, starting with the current state. It buffers 64 changes; one
    /// that falls further behind gets the ones it buffered and then ``BroadcastOverflow``, once, ending it (a new
    /// subscriber starts again from the current state).
    public var connectionStates: Broadcast<ConnectionState>.Subscription { stateHub.subscribe() }

    /// The current connection state.
    public var connectionState: ConnectionState { state.withLock { $0.machine.connectionState } }

    /// Whether calls go out at once (connected or resumed).
    public var isConnected: Bool { connectionState.isConnected }

    /// The last `sessionId` a Kurento server put into a result or error (docs/wire-protocol.md#kurento-conventions), if
    /// any. A reconnect resumes it; a 40007 refusal clears it.
    public var sessionId: String? { state.withLock { $0.machine.sessionId } }

    /// What the server said it does in its last `connect` result (``ServerCapabilities``): the one that opened the
    /// session (``Configuration/acknowledgesNotifications``), or the last resume's; `nil` before any. A stock Kurento
    /// server says nothing: an empty set.
    public var serverCapabilities: ServerCapabilities? { state.withLock { $0.serverCapabilities } }

    /// The round-trip time of the last answered heartbeat `ping`, if any.
    public var heartbeatRTT: Duration? { state.withLock { $0.rtt?.last } }

    /// The smoothed heartbeat round-trip time (an exponentially weighted moving average, weight 1/8), if any.
    public var smoothedRTT: Duration? { state.withLock { $0.rtt?.smoothed } }

    /// Opens the connection, unless connected already; concurrent callers share one attempt. While the client is
    /// reconnecting, it waits for the outcome. With ``Configuration/acknowledgesNotifications`` (`RoomClient`,
    /// `TreeClient`) it returns once the server answered the session's opening `connect` (or
    /// ``Configuration/openingWait`` passed without an answer), so a server that refuses the connection right after
    /// the handshake (close 4401) fails this call, not the next one.
    ///
    /// Cancelling the calling task makes this call throw ``RPCError/cancelled`` at once; the attempt itself is
    /// cancelled when no other caller waits for it.
    /// - Throws: ``RPCError/connectionClosed(_:)`` with the transport's reason when it cannot connect;
    ///   ``RPCError/unauthorized(_:)`` or ``RPCError/forbidden(_:)`` when the server refused the connection (HTTP
    ///   401/403, close 4401/4403), now or before: the client never dials again after a refusal.
    public func connect() async throws {
        if Task.isCancelled { throw RPCError.cancelled }
        enum Next { case done, wait, run(SharedAttempt?), refused(ConnectionEnd) }
        let next = transition { s -> Next in
            switch s.machine.connectRequested() {
            case .none: return .done
            case .waitForReconnection: return .wait
            case .joinAttempt: return .run(s.connecting)
            case .refused(let end): return .refused(end)
            case .startAttempt:
                let attempt = SharedAttempt { try await self.openConnection() }
                s.connecting = attempt
                return .run(attempt)
            }
        }
        switch next {
        case .done: return
        case .wait: _ = try await waitForReconnection()
        case .run(let attempt?): try await attempt.wait()
        case .run(nil): throw RPCError.connectionClosed(nil)
        case .refused(let end): throw RPCError.closed(end)
        }
    }

    /// Callers of ``connect()`` waiting for the attempt in progress (tests).
    var connectWaiters: Int { state.withLock { $0.connecting }?.waiting ?? 0 }

    private func openConnection() async throws {
        let connection: any MessageConnection
        do {
            connection = try await transport.connect()
        } catch {
            let end = error as? ConnectionEnd ?? ConnectionEnd(code: 1006, reason: "connect failed: \(error)")
            transition { s in
                s.connecting = nil
                s.machine.openFailed(end)
            }
            eventHub.publish(.failure(.closed(end)))
            logger.warning("connect failed", metadata: ["reason": "\(end)"])
            throw RPCError.closed(end)
        }
        let opened = transition { s -> Result<Int, RPCError> in
            s.connecting = nil
            if let generation = s.machine.opened(connection) { return .success(generation) }
            guard case .idle(let end) = s.machine.phase else { return .failure(.connectionClosed(nil)) }
            return .failure(.connectionClosed(end))
        }
        let generation: Int
        switch opened {
        case .success(let opened): generation = opened
        case .failure(let error):
            // Closed while the connection was opening: it is not the client's.
            await connection.close(code: 1000, reason: "closed while connecting")
            throw error
        }
        // Before anything else is sent on it (docs/wire-protocol.md#delivery).
        let opening = openSession(on: connection, generation: generation)
        eventHub.publish(.connected)
        logger.debug("connected")
        startReceiving(on: connection, generation: generation)
        startHeartbeat(generation: generation)
        // `connect()` returns once the observers saw `connected` (a RoomClient's state follows them).
        await callbacks.settle()
        if let opening { try await awaitOpening(opening, generation: generation) }
    }

    /// Waits (at most ``Configuration/openingWait``) for the answer to the session's opening `connect`: a server
    /// that refuses the connection after the handshake (4401, 4403) closes it instead of answering, and so does
    /// one that ends it for good otherwise. Throws that end; any answer, or none in time, lets `connect()` succeed.
    private func awaitOpening(_ opening: OneShot<RequestTable.Outcome>, generation: Int) async throws {
        let answer = Task { await opening.wait() }
        // The refusal may reach the opening request (its write reported the close) before the receive loop has
        // ended the connection: the request's own error then says it.
        if case .finished(.failure(let error)) = await race(answer, within: configuration.openingWait, on: clock),
           let end = error.connectionEnd, end.isAuthorizationRefusal {
            throw RPCError.closed(end)
        }
        let ended = state.withLock { s -> ConnectionEnd? in
            guard s.machine.generation == generation, case .idle(let end?) = s.machine.phase else { return nil }
            return end
        }
        if let ended { throw RPCError.closed(ended) }
    }

    /// Closes the connection (a user-initiated close, which never reconnects; a reconnection in progress stops at
    /// once). Pending requests and queued sends complete with ``RPCError/connectionClosed(_:)`` carrying `code`
    /// and `reason`.
    public func close(code: UInt16 = 1000, reason: String = "") async {
        let end = ConnectionEnd(code: code, reason: reason)
        // The pending requests are taken in the same locked step as the state: a dispatch task that finds one of
        // its requests still pending must not find the client idle (autoConnect would dial after the close).
        let (action, reconnecting, waiters, timer, requests) = transition { s in
            defer {
                s.connecting = nil
                s.reconnecting = nil
                s.waiters = [:]
                s.heartbeatTimer = nil
            }
            let action = s.machine.closeRequested(end)
            let requests: [RequestTable.Entry] = if case .close = action { s.requests.removeAll() } else { [] }
            return (action, s.reconnecting, Array(s.waiters.values), s.heartbeatTimer, requests)
        }
        reconnecting?.cancel()
        timer?.cancel()
        guard case .close(let connections) = action else { return }
        Self.fail(requests, with: .connectionClosed(end))
        for waiter in waiters { waiter.resume(throwing: RPCError.connectionClosed(end)) }
        eventHub.publish(.disconnected(end))
        for connection in connections { await connection.close(code: code, reason: reason) }
        // `close()` returns once the observers saw `disconnected` (a RoomClient's peers model is empty by then).
        await callbacks.settle()
    }

    /// Whether a connection that ended with `end` may be reconnected: not after a normal close by the server
    /// (1000), a protocol or policy refusal, an auth refusal or a session takeover.
    public static func reconnects(after end: ConnectionEnd) -> Bool {
        ClientConnectionMachine<Never>.reconnects(after: end)
    }

    /// The receive loop (or the heartbeat) reported the end of connection `generation`.
    ///
    /// The requests that end with it are taken out of the table in the same locked step as the transition: once the
    /// lock is released, the reconnect loop started here may register its handshake's `connect` (a control request
    /// of the *new* connection), which failing "every control request" a moment later would have failed too; its
    /// answer was then dropped and the loop waited for a next attempt while the pending calls waited forever.
    func connectionEnded(generation: Int, end: ConnectionEnd) {
        // The clock and the timer handle may be the user's: neither is called under the lock.
        let lostAt = clock.now
        typealias Ending = (next: ClientConnectionMachine<any MessageConnection>.EndAction, heartbeatTimer: (any TimerHandle)?,
                            ended: [RequestTable.Entry])
        let (next, heartbeatTimer, ended) = transition { s -> Ending in
            let next = s.machine.connectionEnded(generation: generation, end: end, pendingIDs: s.requests.callIDs)
            let ended: [RequestTable.Entry]
            switch next {
            case .ignore:
                return (next, nil, [])
            case .handshakeLost:
                // The reconnect loop waits on its `connect`; failing it sends the loop to its next attempt.
                return (next, nil, s.requests.removeAll(.control))
            case .reconnect(let epoch):
                ended = s.requests.removeAll(.control)
                if let backoff = configuration.reconnect.backoff {
                    s.reconnecting = Task { await self.reconnect(after: end, lostAt: lostAt, backoff: backoff, epoch: epoch) }
                }
            case .stop:
                // Without reconnecting (policy off, or a close code that forbids it) a drop completes every pending
                // request at once; a refusal (4401, 4403) with its typed error.
                ended = s.requests.removeAll()
            }
            defer { s.heartbeatTimer = nil }
            return (next, s.heartbeatTimer, ended)
        }
        heartbeatTimer?.cancel()
        switch next {
        case .ignore:
            return
        case .handshakeLost:
            Self.fail(ended, with: .connectionClosed(end))
        case .reconnect:
            Self.fail(ended, with: .connectionClosed(end))
            logger.info("connection lost; reconnecting", metadata: ["reason": "\(end)"])
            eventHub.publish(.disconnected(end))
        case .stop:
            Self.fail(ended, with: .closed(end))
            logger.info("connection ended", metadata: ["reason": "\(end)", "failedRequests": "\(ended.count)"])
            eventHub.publish(.disconnected(end))
            if end.code != 1000 { eventHub.publish(.failure(.closed(end))) }
        }
    }

    /// The open connection: connecting first when allowed, or waiting for a reconnection in progress. With `ids`,
    /// only while one of those requests is still pending, checked in the same step as the state: requests that a
    /// ``close(code:reason:)`` already failed never make the client dial again.
    func connectionForSending(for ids: [RequestID]? = nil) async throws -> any MessageConnection {
        let action = state.withLock { s -> ClientConnectionMachine<any MessageConnection>.SendAction? in
            if let ids, !ids.contains(where: s.requests.contains) { return nil }
            return s.machine.sendAction
        }
        guard let action else { throw RPCError.connectionClosed(nil) }
        switch action {
        case .send(let connection): return connection
        case .waitForReconnection: return try await waitForReconnection()
        case .fail(let end): throw RPCError.closed(end)
        case .connectFirst:
            try await connect()
            guard let connection = state.withLock({ $0.machine.connection }) else { throw RPCError.connectionClosed(nil) }
            return connection
        }
    }

    /// Sends one message text on the current connection; with `request`, only while that request is still pending
    /// once the connection is there (a retry that waited for a reconnection whose fresh session failed it must not
    /// reach the server).
    func transmit(_ text: String, unlessEnded request: RequestID? = nil) async throws {
        let connection = try await connectionForSending()
        if let request, !withRequests({ $0.contains(request) }) { return }
        do {
            try await connection.send(text)
        } catch let end as ConnectionEnd {
            throw RPCError.closed(end)
        }
    }
}

extension JSONRPCClient: RequestTableOwner {
    func withRequests<T>(_ body: (inout RequestTable) -> T) -> T { state.withLock { body(&$0.requests) } }
    var requestClock: any SignalingClock { configuration.clock }

    /// A retry re-sends a call only to a server that said it dedupes (docs/wire-protocol.md#stock-kurento): a stock
    /// Kurento server runs a copy again, so there a retry only waits longer. A client that opens its sessions with
    /// `connect` (``Configuration/acknowledgesNotifications``) knows from that answer; until it arrives only
    /// ``Configuration/assumedCapabilities`` count. A client that never asks re-sends until a resume tells.
    var resendsOnTimeout: Bool {
        state.withLock { s in
            if let known = s.serverCapabilities { return known.contains(.dedupe) }
            return !configuration.acknowledgesNotifications || configuration.assumedCapabilities.contains(.dedupe)
        }
    }
}
