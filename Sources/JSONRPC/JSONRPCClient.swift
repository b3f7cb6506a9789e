import Logging
import SignalingSupport

/// The JSON-RPC 2.0 client endpoint: the NBMJSONRPCClient counterpart (PROTOCOL §1), over any
/// ``MessageTransport``.
///
/// - Every call completes exactly once: with its result, the peer's error, a timeout after the retries
///   (``Configuration/retries`` re-sends of the *same id* with a doubled timeout), cancellation, or
///   ``RPCError/connectionClosed(_:)`` when the connection drops (``ReconnectPolicy/off``).
/// - Server→client requests go to handlers registered with ``handle(_:_:)``; an unknown method gets -32601.
/// - ``notifications`` and ``connectionStates`` are multicast (DESIGN §2). A call's result is delivered only after
///   every notification that arrived before its response was published.
/// - The async API is the implementation; the delegate (``delegate``) and completion-closure faces are thin
///   adapters. Delegate methods and completions run on no particular thread.
public final class JSONRPCClient: Sendable {
    /// What the delegate face (and anyone else inside the module) observes, in wire order.
    enum Event: Sendable {
        case connected
        case disconnected(ConnectionEnd?)
        case request(RPCRequest)
        case failure(RPCError)
    }

    struct State {
        var connection: (any MessageConnection)?
        /// Bumped for every new or closed connection, so a stale receive loop's end is ignored.
        var generation = 0
        var connecting: Task<Void, any Error>?
        var connectionState = ConnectionState.disconnected(nil)
        var sessionId: String?
        var delegate = DelegateSlot()
    }

    /// The settings this client was made with.
    public let configuration: Configuration
    let transport: any MessageTransport
    let state = LockedValue(State())
    let pending: PendingRequests
    let ids = SequentialIDs()
    let router = MethodRouter<RPCRequest>()
    let notificationHub: Broadcast<RPCNotification>
    let stateHub = Broadcast<ConnectionState>(bufferLimit: 64, replaysLatest: true)
    let eventHub = Broadcast<Event>(bufferLimit: 4096)
    let notificationObservers = LockedValue<[@Sendable (RPCNotification) -> Void]>([])
    let stateObservers = LockedValue<[@Sendable (ConnectionState) -> Void]>([])
    var logger: Logger { configuration.logger }

    /// Creates a client that opens its connections through `transport`. Nothing is sent until ``connect()``
    /// or, with ``Configuration/autoConnect``, the first call.
    public init(transport: any MessageTransport, configuration: Configuration = .init()) {
        self.transport = transport
        self.configuration = configuration
        pending = PendingRequests(clock: configuration.clock, retries: configuration.retries)
        notificationHub = Broadcast(bufferLimit: configuration.notificationBufferLimit)
        stateHub.publish(.disconnected(nil))
    }

    deinit {
        // Nobody can call close() any more: close the connection so the receive loop (which holds it) ends too.
        if let connection = state.withLock({ $0.connection }) {
            Task { await connection.close(code: 1001, reason: "client released") }
        }
        pending.failAll(with: .cancelled)
        notificationHub.finish()
        stateHub.finish()
        eventHub.finish()
    }

    /// A new subscriber to the server's notifications, in wire order, from this moment on. Each access is a new
    /// subscriber with a bounded buffer; one that falls behind ends with ``BroadcastOverflow``.
    public var notifications: Broadcast<RPCNotification>.Subscription { notificationHub.subscribe() }

    /// A new subscriber to connection-state changes, starting with the current state.
    public var connectionStates: Broadcast<ConnectionState>.Subscription { stateHub.subscribe() }

    /// The current connection state.
    public var connectionState: ConnectionState { state.withLock { $0.connectionState } }

    /// Whether the client is connected.
    public var isConnected: Bool { connectionState.isConnected }

    /// The last `sessionId` a Kurento server put into a result or error (PROTOCOL §0), if any.
    public var sessionId: String? { state.withLock { $0.sessionId } }

    /// Opens the connection, unless connected already; concurrent callers share one attempt.
    ///
    /// - Throws: ``RPCError/connectionClosed(_:)`` with the transport's reason when it cannot connect.
    public func connect() async throws {
        let attempt = state.withLock { s -> Task<Void, any Error>? in
            if s.connection != nil { return nil }
            if let running = s.connecting { return running }
            let task = Task { try await self.openConnection() }
            s.connecting = task
            return task
        }
        try await attempt?.value
    }

    private func openConnection() async throws {
        setState(.connecting)
        let connection: any MessageConnection
        do {
            connection = try await transport.connect()
        } catch {
            let end = error as? ConnectionEnd ?? ConnectionEnd(code: 1006, reason: "connect failed: \(error)")
            state.withLock { $0.connecting = nil }
            setState(.disconnected(end))
            eventHub.publish(.failure(.connectionClosed(end)))
            logger.warning("connect failed", metadata: ["reason": "\(end)"])
            throw RPCError.connectionClosed(end)
        }
        let generation = state.withLock { s -> Int in
            s.connection = connection
            s.connecting = nil
            s.generation += 1
            return s.generation
        }
        setState(.connected)
        eventHub.publish(.connected)
        logger.debug("connected")
        startReceiving(on: connection, generation: generation)
    }

    /// Closes the connection (a user-initiated close, which never reconnects). Pending requests complete with
    /// ``RPCError/connectionClosed(_:)`` carrying `code` and `reason`.
    public func close(code: UInt16 = 1000, reason: String = "") async {
        let end = ConnectionEnd(code: code, reason: reason)
        let connection = state.withLock { s -> (any MessageConnection)? in
            defer { s.connection = nil }
            s.generation += 1
            return s.connection
        }
        guard let connection else { return }
        setState(.disconnected(end))
        pending.failAll(with: .connectionClosed(end))
        eventHub.publish(.disconnected(end))
        await connection.close(code: code, reason: reason)
    }

    /// The receive loop reported the end of connection `generation`.
    func connectionEnded(generation: Int, end: ConnectionEnd) {
        let current = state.withLock { s -> Bool in
            guard s.generation == generation, s.connection != nil else { return false }
            s.connection = nil
            return true
        }
        guard current else { return }
        setState(.disconnected(end))
        // DESIGN §5, reconnect .off: a drop completes every pending request at once.
        let failed = pending.failAll(with: .connectionClosed(end))
        logger.info("connection ended", metadata: ["reason": "\(end)", "failedRequests": "\(failed)"])
        eventHub.publish(.disconnected(end))
        if end.code != 1000 { eventHub.publish(.failure(.connectionClosed(end))) }
    }

    /// Publishes a state change; under the lock so that subscribers see changes in the order they happened.
    func setState(_ new: ConnectionState) {
        let observers = stateObservers.withLock { $0 }
        state.withLock { s in
            s.connectionState = new
            for observer in observers { observer(new) }
            stateHub.publish(new)
        }
    }

    /// Registers `observer`, called synchronously with every later connection-state change, in order, before the
    /// change is published on ``connectionStates``. A drop is reported from the receive loop after every message
    /// that arrived before it was handled. It is for layers built on this client that keep state in one order
    /// with the notifications (see ``observeNotifications(_:)``). It runs under the client's lock: it must be
    /// quick, must not block, and must not call this client. Observers cannot be removed.
    public func observeConnectionStates(_ observer: @escaping @Sendable (ConnectionState) -> Void) {
        stateObservers.withLock { $0.append(observer) }
    }

    /// The open connection, connecting first when allowed.
    func connectionForSending() async throws -> any MessageConnection {
        if let connection = state.withLock({ $0.connection }) { return connection }
        guard configuration.autoConnect else { throw RPCError.connectionClosed(nil) }
        try await connect()
        guard let connection = state.withLock({ $0.connection }) else { throw RPCError.connectionClosed(nil) }
        return connection
    }

    /// Sends one message text on the current connection.
    func transmit(_ text: String) async throws {
        let connection = try await connectionForSending()
        do {
            try await connection.send(text)
        } catch let end as ConnectionEnd {
            throw RPCError.connectionClosed(end)
        }
    }
}
