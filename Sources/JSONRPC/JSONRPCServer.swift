import CoreMetrics
public import Logging
public import SignalingSupport
import Tracing

/// The JSON-RPC 2.0 server endpoint: serves accepted ``MessageConnection``s (from the WebSocket adapter or
/// ``LocalMessageConnection``).
///
/// - Each connection gets a ``ServerSession`` with a CSPRNG id (docs/architecture.md#identity).
/// - With ``Conventions/kurento`` (the default) it answers the built-ins `ping`, `connect` and `closeSession` and
///   shapes results and errors exactly as docs/wire-protocol.md#kurento-conventions; ``Conventions/plain`` is
///   JSON-RPC 2.0 to the letter.
/// - A session that pinged (the heartbeat) and then stays silent for 3 × its declared `interval` (clamped to
///   ``Configuration/pingIntervalLimits``) is treated like a dropped socket: its reconnection window starts and
///   the socket is closed with 1001 (docs/wire-protocol.md#heartbeat).
/// - A request id seen again in the same session runs its handler once: a copy of a running request attaches to
///   that run, a copy of a finished one gets the cached response.
/// - Handlers run in tasks of their own, so a slow handler never stalls the connection's receive loop; responses
///   leave as their handlers finish (JSON-RPC does not order responses; each carries its id). At most
///   ``Configuration/maxInFlightPerConnection`` run per connection: past that the connection stops reading (the
///   transport's backpressure) instead of queueing work. A handler that runs past
///   ``Configuration/handlerTimeout`` is cancelled and its request answered with -32001 "handler timed out".
/// - A connection that ends unbinds its session at once (its reconnection window starts), even while its
///   handlers still run.
public final class JSONRPCServer: Sendable {
    /// Response shaping.
    public enum Conventions: Sendable, Hashable {
        /// Kurento's sessionId injection and built-ins (docs/wire-protocol.md#kurento-conventions).
        case kurento
        /// Plain JSON-RPC 2.0: results as returned, no built-ins.
        case plain
    }

    /// Server settings (defaults in docs/architecture.md#defaults).
    public struct Configuration: Sendable {
        /// Response shaping. Default ``Conventions/kurento``.
        public var conventions: Conventions
        /// Timeout of server→client requests. Default 5 s.
        public var requestTimeout: Duration
        /// Same-id re-sends of server→client requests. Default 0: clients need not dedupe.
        public var retries: Int
        /// How long a finished request's response is remembered for duplicates: at least the client's retry span
        /// (5 s + 10 s) plus the reconnection window (10 s). Default 30 s.
        public var duplicateRetention: Duration
        /// Finished responses remembered per session. Default 1,000.
        public var maxRememberedResponses: Int
        /// The bytes one session's duplicate detection may hold (its finished responses and their ids, plus a fixed
        /// overhead per entry; the params are kept as a digest); past it the oldest are forgotten first
        /// (docs/wire-protocol.md#dedupe). Default 1 MiB.
        public var maxRememberedBytesPerSession: Int
        /// The bytes the duplicate detection of every session of this server may hold together; past it a response
        /// is sent but not remembered (a copy then runs again). Default 64 MiB.
        public var maxRememberedBytesPerServer: Int
        /// The bytes of notifications one session may keep handed and not released (not yet acknowledged by a client
        /// that acknowledges, not yet written for one that does not; docs/wire-protocol.md#delivery); one more ends
        /// the session and closes its socket with 4410, after which its client starts a new session and reads its
        /// state again. A lone notification always goes. Default 4 MiB.
        public var maxUnacknowledgedBytes: Int
        /// Requests and notifications one batch may hold (JSON-RPC 2.0 §6); a longer batch is refused whole with one
        /// -32600 error, `id: null`, whose `data` names the limit (docs/wire-protocol.md#limits). Default 100.
        public var maxBatchLength: Int
        /// Who a connection speaks for (docs/architecture.md#identity): a session is bound to the principal of the
        /// connection that opened it, and `connect{sessionId}` from a connection with another principal (`nil`
        /// included) is refused with 40007, as an unknown session would be, whether the session's own socket is
        /// open or gone. Called once per connection, where it is read (a WebSocket's service thread): it must be
        /// quick and must not block. Default ``JSONRPCServer/bearerToken(of:)``: the upgrade's bearer token, so
        /// without authentication every connection's principal is `nil` and every resume is allowed, as before.
        public var principal: @Sendable (any MessageConnection) -> String?
        /// How long a session survives its connection, waiting for `connect{sessionId}`. Default 10 s.
        public var reconnectionWindow: Duration
        /// Deepest JSON nesting accepted; deeper input gets -32700. Default 128.
        public var maxDepth: Int
        /// The range a client's declared heartbeat `interval` is clamped to (docs/architecture.md#defaults).
        /// Default 1…60 s.
        public var pingIntervalLimits: ClosedRange<Duration>
        /// The interval assumed when a client pings without declaring one. Default 20 s
        /// (docs/wire-protocol.md#heartbeat).
        public var defaultPingInterval: Duration
        /// Where the server logs. Default: discards everything.
        public var logger: Logger
        /// The clock behind every timer.
        public var clock: any SignalingClock
        /// Handlers (requests and notifications) one connection runs at once; at the limit the connection stops
        /// reading until one finishes. Default 64.
        public var maxInFlightPerConnection: Int
        /// How long a handler may run; then its task is cancelled and the request gets -32001 "handler timed out"
        /// (``RPCErrorObject/handlerTimedOutCode``). `nil`: no deadline. Default 30 s.
        public var handlerTimeout: Duration?
        /// Where the server's metrics go (docs/operations.md#metrics: connections, sessions, requests by method and
        /// outcome, latency, notifications, outbox depth, resumes, closes). Default: the factory the process
        /// bootstrapped when this configuration was made (none: no metrics, no cost).
        public var metrics: SignalingMetrics
        /// Members added to both `connect` results beside `value`, `sessionId` and `capabilities`: what the server
        /// tells its clients about itself. A `RoomServer` says there which service a path serves and the limits a
        /// client should respect (`"service": "room"`, `"limits": {"requestsPerSecond": 100, …}`,
        /// docs/wire-protocol.md#server-description); stock clients ignore them. Default: none.
        public var advertised: [String: JSONValue]

        /// Creates a configuration; every argument has its default.
        public init(
            conventions: Conventions = .kurento,
            requestTimeout: Duration = .seconds(5),
            retries: Int = 0,
            duplicateRetention: Duration = .seconds(30),
            maxRememberedResponses: Int = 1000,
            reconnectionWindow: Duration = .seconds(10),
            maxDepth: Int = JSONParser.defaultMaxDepth,
            pingIntervalLimits: ClosedRange<Duration> = .seconds(1) ... .seconds(60),
            defaultPingInterval: Duration = .seconds(20),
            logger: Logger = .disabled(label: "KurentoSignaling.JSONRPCServer"),
            clock: any SignalingClock = SystemClock(),
            maxInFlightPerConnection: Int = 64,
            handlerTimeout: Duration? = .seconds(30),
            metrics: SignalingMetrics = SignalingMetrics(),
            maxRememberedBytesPerSession: Int = 1 << 20,
            maxRememberedBytesPerServer: Int = 64 << 20,
            maxBatchLength: Int = 100,
            maxUnacknowledgedBytes: Int = 4 << 20,
            principal: @escaping @Sendable (any MessageConnection) -> String? = JSONRPCServer.bearerToken(of:),
            advertised: [String: JSONValue] = [:]
        ) {
            self.conventions = conventions
            self.requestTimeout = requestTimeout
            self.retries = retries
            self.duplicateRetention = duplicateRetention
            self.maxRememberedResponses = maxRememberedResponses
            self.reconnectionWindow = reconnectionWindow
            self.maxDepth = maxDepth
            self.pingIntervalLimits = pingIntervalLimits
            self.defaultPingInterval = defaultPingInterval
            self.logger = logger
            self.clock = clock
            self.maxInFlightPerConnection = maxInFlightPerConnection
            self.handlerTimeout = handlerTimeout
            self.metrics = metrics
            self.maxRememberedBytesPerSession = maxRememberedBytesPerSession
            self.maxRememberedBytesPerServer = maxRememberedBytesPerServer
            self.maxBatchLength = maxBatchLength
            self.maxUnacknowledgedBytes = maxUnacknowledgedBytes
            self.principal = principal
            self.advertised = advertised
        }
    }

    /// The settings this server was made with.
    public let configuration: Configuration
    /// The method router; ``register(_:placement:_:)-(_,_,(JSONValue?,RPCRequestContext)->JSONValue?)`` is the
    /// usual way in.
    public let router: MethodRouter<RPCRequestContext>
    /// The instruments, when ``Configuration/metrics`` is enabled.
    let metrics: ServerMetrics?
    let sessions = LockedValue([String: ServerSession]())
    /// Every session's ping watchdog, on one timer.
    let watchdogs = WatchdogSweep()
    let sessionEndHandlers = LockedValue([@Sendable (ServerSession) -> Void]())
    let sessionResumeHandlers = LockedValue([@Sendable (ServerSession) -> Void]())
    /// The library's own resume hooks (``whenSessionResumesBeforeReply(_:)``), run in place.
    let sessionResumeHooks = LockedValue([@Sendable (ServerSession) -> Void]())
    /// The byte budget every session's duplicate detection counts against.
    let rememberedBytes: ResponseCacheBudget
    /// Keeps the lines a client can trigger at will from flooding the log (docs/operations.md#logs).
    let logThrottle: LogThrottle
    package var logger: Logger { configuration.logger }

    /// Creates a server with no methods but the built-ins.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        metrics = ServerMetrics(configuration.metrics)
        router = MethodRouter(metrics: metrics)
        rememberedBytes = ResponseCacheBudget(perSession: configuration.maxRememberedBytesPerSession,
                                              perServer: configuration.maxRememberedBytesPerServer)
        logThrottle = LogThrottle(clock: configuration.clock)
    }

    /// The default ``Configuration/principal``: the connection's ``MessageConnection/bearerToken`` (a WebSocket
    /// connection's upgrade: `Authorization: Bearer …`, else `?access_token=`), `nil` when it has none.
    public static func bearerToken(of connection: any MessageConnection) -> String? {
        connection.bearerToken
    }

    /// Registers the handler of `method`. Return the result, or `nil` for a void result; throw an
    /// ``RPCErrorObject`` to answer with that error. `placement` says where it runs (``HandlerPlacement``: on
    /// the global concurrent executor unless it is known never to block).
    public func register(_ method: String, placement: HandlerPlacement = .concurrent,
                         _ handler: @escaping @Sendable (JSONValue?, RPCRequestContext) async throws -> JSONValue?) {
        router.register(method, placement: placement) { params, context in try await handler(params?.value, context) }
    }

    /// Registers a typed handler: params decode into `P` (-32602 naming the param when they don't).
    public func register<P: Decodable & SendableMetatype, R: Encodable & SendableMetatype>(
        _ method: String, placement: HandlerPlacement = .concurrent,
        _ handler: @escaping @Sendable (P, RPCRequestContext) async throws -> R
    ) {
        router.register(method, placement: placement, handler)
    }

    /// Registers a synchronous handler of `method` that runs inline, in the connection's receive loop, where the
    /// request was decoded: no task, no slot of ``Configuration/maxInFlightPerConnection``, and on a WebSocket
    /// connection no thread hop (it runs on the event loop's service thread). The cheapest path there is, for
    /// handlers that only touch memory: it must return quickly and never block, since the connection (and on the
    /// service thread every connection of the loop) waits while it runs, and ``Configuration/handlerTimeout``
    /// cannot stop it. Anything that waits belongs in
    /// ``register(_:placement:_:)-(_,_,(JSONValue?,RPCRequestContext)->JSONValue?)``.
    public func registerInline(_ method: String,
                               _ handler: @escaping @Sendable (JSONValue?, RPCRequestContext) throws -> JSONValue?) {
        router.registerInline(method) { params, context in try handler(params?.value, context) }
    }

    /// The live session with id `id`, if any.
    public func session(id: String) -> ServerSession? { sessions.withLock { $0[id] } }

    /// The number of live sessions (connected, or waiting in their reconnection window).
    public var sessionCount: Int { sessions.withLock { $0.count } }

    /// Serves `connection` until it ends and its running handlers have finished. Call it once per accepted
    /// connection, from its own task; cancelling that task closes the connection with 1001.
    ///
    /// The connection is read, its messages decoded and answered, on the connection's
    /// ``MessageConnection/executor`` when it has one (a WebSocket connection's service thread: no thread hop per
    /// message); handlers run there only when registered with ``HandlerPlacement/connectionExecutor``.
    public func serve(_ connection: any MessageConnection) async {
        await withTaskExecutorPreference(connection.executor) { await serveHere(connection) }
    }

    private func serveHere(_ connection: any MessageConnection) async {
        // The connection's trace: the caller's `traceparent`, else a new one. Every task started from here (the
        // handlers) inherits it, so one connection's log lines share a trace id from the upgrade on.
        await ServiceContext.withValue(Self.traceContext(of: connection)) { await serveTraced(connection) }
    }

    private func serveTraced(_ connection: any MessageConnection) async {
        let binding = ConnectionBinding(connection, principal: configuration.principal(connection))
        let first = ServerSession(binding: binding, configuration: configuration, budget: rememberedBytes,
                                  metrics: metrics) {
            [weak self] session in self?.endSession(session)
        }
        sessions.withLock { $0[first.id] = first }
        metrics?.sessions.increment()
        metrics?.connections.increment()
        let current = LockedValue(first)
        let inflight = InFlightWork(limit: configuration.maxInFlightPerConnection, timeout: configuration.handlerTimeout,
                                    clock: configuration.clock)
        logger.debug("serving", metadata: ["session": .string(first.redactedID)])
        var end: ConnectionEnd
        while true {
            do {
                let text = try await connection.receive()
                await receive(text, binding: binding, current: current, inflight: inflight)
            } catch let ended as ConnectionEnd {
                end = ended
                break
            } catch {
                // Not an end of the connection (the serving task was cancelled): end it ourselves, and the handlers.
                await connection.close(code: 1001, reason: "server stopped")
                inflight.cancelAll()
                end = ConnectionEnd(code: 1001, reason: "server stopped")
                break
            }
        }
        metrics?.connections.decrement()
        // Unbind at once, even while handlers still run: the reconnection window starts now, and a hung handler
        // cannot keep a dead socket's session (and its participant) alive.
        let session = current.withLock { $0 }
        let detached = session.detach(binding, end: end, window: configuration.reconnectionWindow,
                                      clock: configuration.clock) { [weak self, weak session] in
            guard let self, let session else { return }
            self.endSession(session)
        }
        logger.debug("connection ended", metadata: ["session": .string(session.redactedID), "reason": "\(end)", "detached": "\(detached)"])
        await noteOversizeClose(connection, end: end, session: session)
        await withTaskCancellationHandler {
            await inflight.waitUntilIdle()
        } onCancel: {
            inflight.cancelAll()
        }
    }

    /// A connection the transport closed with 1009 for a message over its size limit (a peer's own 1009 is not
    /// ours): counted in `signaling_closes_total{reason="message_too_big"}` and logged, at most ten lines per ten
    /// seconds (docs/operations.md#logs).
    /// RFC 6455 §7.4.1: the close code of a message too big to process.
    private static let messageTooBig: UInt16 = 1009

    private func noteOversizeClose(_ connection: any MessageConnection, end: ConnectionEnd, session: ServerSession) async {
        guard end.code == Self.messageTooBig, await connection.closedLocally else { return }
        metrics?.closed(.messageTooBig)
        logger.log(.warning, "connection closed: message too big",
                   metadata: ["session": .string(session.redactedID), "code": "\(end.code)", "reason": .bounded(end.reason)],
                   throttledBy: logThrottle)
    }

    /// Registers `handler`, called once for every session that ends for good: its reconnection window expired,
    /// or the client sent `closeSession`. Applications release what the session held there (a room server
    /// evicts its participant). Called soon after, on the global concurrent executor (never on an event loop's
    /// service thread), after the session's earlier ``whenSessionResumes(_:)`` handlers; it should not block.
    public func whenSessionEnds(_ handler: @escaping @Sendable (ServerSession) -> Void) {
        sessionEndHandlers.withLock { $0.append(handler) }
    }

    /// Registers `handler`, called each time `connect{sessionId}` re-binds a session to a new connection, so that
    /// applications can send what waited for it. Called soon after the re-bind, on the global concurrent executor
    /// (never on an event loop's service thread), so possibly after the `connect` reply was sent; one session's
    /// handlers run in order, its resumes before its end. It should not block.
    public func whenSessionResumes(_ handler: @escaping @Sendable (ServerSession) -> Void) {
        sessionResumeHandlers.withLock { $0.append(handler) }
    }

    /// Registers `hook`, called each time `connect{sessionId}` re-binds a session, where the `connect` is handled
    /// (a WebSocket's service thread) and before its reply is sent: for the library's own quick work that must
    /// precede the reply (Room and Tree hand their session's queued notifications to the new connection there,
    /// docs/architecture.md#server-sessions). It must be quick and must not block.
    package func whenSessionResumesBeforeReply(_ hook: @escaping @Sendable (ServerSession) -> Void) {
        sessionResumeHooks.withLock { $0.append(hook) }
    }

    /// `session` was re-bound by a `connect{sessionId}`: the hooks run now, the handlers off the service thread.
    func sessionResumed(_ session: ServerSession) {
        for hook in sessionResumeHooks.withLock({ $0 }) { hook(session) }
        let handlers = sessionResumeHandlers.withLock { $0 }
        guard !handlers.isEmpty else { return }
        session.handlers.enqueue { for handler in handlers { handler(session) } }
    }

    /// Forgets `session` (expiry of its reconnection window, or closeSession).
    func endSession(_ session: ServerSession) {
        let removed = sessions.withLock { table -> Bool in
            guard table[session.id] === session else { return false }
            table[session.id] = nil
            return true
        }
        session.terminate()
        watchdogs.forget(session)
        guard removed else { return }
        metrics?.sessions.decrement()
        let handlers = sessionEndHandlers.withLock { $0 }
        guard !handlers.isEmpty else { return }
        session.handlers.enqueue { for handler in handlers { handler(session) } }
    }
}
