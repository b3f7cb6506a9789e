public import JSONRPC
import JSONRPCWebSocket
import Logging
import SignalingSupport

/// The Swift kurento-client (docs/kurento.md): Kurento Media Server's objects and events over one WebSocket, the
/// counterpart of kurento-client-js and kurento-client-java for what a signaling server needs.
///
/// ```swift
/// let kms = KurentoClient(url: "ws://127.0.0.1:8888/kurento")
/// let pipeline = try await kms.createMediaPipeline()
/// let endpoint = try await pipeline.createWebRtcEndpoint()
/// let candidates = try await endpoint.events(IceCandidateFound.self)
/// let answer = try await endpoint.processOffer(offer)
/// try await endpoint.gatherCandidates()
/// for try await found in candidates { send(found.candidate) }
/// ```
///
/// - **Session** (docs/kurento.md#sessions): ``connect()`` (or the first call) opens the connection and a KMS
///   session (`connect` without params); every request carries its `sessionId`. A drop reconnects and resumes the
///   session with `connect {sessionId}` for ``Configuration/sessionRetention`` (KMS keeps a disconnected session's
///   objects until its garbage collector finds the session unused, 240–480 s by default); a 40007 refusal means KMS
///   restarted or collected them: ``KurentoConnectionEvent/sessionLost(_:)``, and a new session follows.
/// - **Objects** are addressed by their KMS id (``MediaPipeline/init(id:client:)``), so an object another process
///   created can be used as well. ``MediaObject/release(timeout:)`` of a pipeline releases its elements.
/// - **Events** (``KurentoEvent``) arrive as ``KurentoEventStream``s or handlers; the wire subscription is made
///   once per object and event, and ends with the object.
/// - **Requests** complete exactly once: with KMS's value, a ``KurentoError/server(code:message:type:)``, a
///   timeout, a lost connection or a cancellation. No request is retried (KMS caches an answer only once it is sent,
///   so a retry of a request still running would run it twice). A `create` whose caller timed out stays on the wire
///   for ``Configuration/lateAnswerWindow``, and the object a late answer names is released.
/// - ``send(_:timeout:)`` pipelines requests: KMS processes one connection's requests in order, so dependent
///   requests go out back to back and cost one round trip.
public final class KurentoClient: Sendable {
    struct EventHandler: Sendable {
        let deliver: @Sendable (JSONValue) -> Void
        let end: @Sendable ((any Error)?) -> Void
    }

    /// One subscription on the wire, shared by the local subscribers of one object's event.
    struct WireSubscription: Sendable {
        var id: String?
        var handlers: [UInt64: EventHandler] = [:]
        let confirmation = OneShot<Result<String, KurentoError>>()
    }

    struct State {
        /// The KMS session the requests carry; `nil` before one is open, and after it was lost.
        var sessionId: String?
        var serverId: String?
        /// The `connect` that opens a session, shared by every caller that waits for one.
        var acquiring: Task<String, any Error>?
        var closed = false
        var subscriptions: [EventKey: WireSubscription] = [:]
        var nextToken: UInt64 = 0
        /// The objects this client created and has not released, with their types.
        var objects: [String: String] = [:]
    }

    /// The settings this client was made with.
    public let configuration: Configuration
    /// What identifies this KMS in logs and metrics: its URL, or the name given.
    public let name: String
    let rpc: JSONRPCClient
    let state = LockedValue(State())
    let connectionHub = Broadcast<KurentoConnectionEvent>(bufferLimit: 64)
    let connectionObservers = LockedValue<[@Sendable (KurentoConnectionEvent) -> Void]>([])
    let metrics: KurentoMetrics?
    var logger: Logger { configuration.logger }
    var clock: any SignalingClock { configuration.clock }

    /// Creates a client for the KMS at `url` (e.g. `ws://127.0.0.1:8888/kurento`). Nothing is sent until
    /// ``connect()`` or the first call.
    public convenience init(url: String, configuration: Configuration = .init()) {
        self.init(transport: WebSocketMessageTransport(url: url), name: url, configuration: configuration)
    }

    /// Creates a client that opens its connections through `transport` (another `MessageTransport`, such as a
    /// `WebSocketMessageTransport` with TLS settings); `name` labels its logs and metrics.
    public init(transport: any MessageTransport, name: String, configuration: Configuration = .init()) {
        self.configuration = configuration
        self.name = name
        rpc = JSONRPCClient(transport: transport, configuration: configuration.rpc)
        metrics = KurentoMetrics(configuration.metrics, name: name)
        rpc.observeNotifications { [weak self] notification in self?.route(notification) }
        rpc.observeConnectionStates { [weak self] connection in self?.connectionChanged(connection) }
    }

    deinit {
        connectionHub.finish()
    }

    /// The current KMS session, if one is open.
    public var sessionId: String? { state.withLock { $0.sessionId } }

    /// The id of the KMS process the session is on (`serverId` of `connect`), if known.
    public var serverId: String? { state.withLock { $0.serverId } }

    /// Whether a session is open and the connection up.
    public var isConnected: Bool { sessionId != nil && rpc.isConnected }

    /// The round-trip time of the last answered `ping`, if any.
    public var heartbeatRTT: Duration? { rpc.heartbeatRTT }

    /// The media objects this client created and has not released (pipelines and elements), by id, with their types.
    /// A released pipeline takes its elements with it; a lost session empties it.
    public var liveObjects: [String: String] { state.withLock { $0.objects } }

    /// How many ``liveObjects`` are pipelines.
    public var livePipelineCount: Int {
        state.withLock { $0.objects.values.filter { $0 == MediaPipeline.typeName }.count }
    }

    /// A new subscriber to the connection's events (``KurentoConnectionEvent``), from this moment on.
    public var connectionEvents: Broadcast<KurentoConnectionEvent>.Subscription { connectionHub.subscribe() }

    /// Registers `observer`, called with every connection event in order, before it is published on
    /// ``connectionEvents``. It runs on no particular thread and must be quick; it may call the client (in a task).
    public func observeConnection(_ observer: @escaping @Sendable (KurentoConnectionEvent) -> Void) {
        connectionObservers.withLock { $0.append(observer) }
    }

    /// Opens the connection and a KMS session, unless open already; concurrent callers share one attempt.
    /// - Throws: ``KurentoError/connectionLost(_:)`` when KMS cannot be reached.
    public func connect() async throws(KurentoError) {
        _ = try await session()
    }

    /// Ends the session: KMS is told with `closeSession`, which drops this session's references (an object no other
    /// session uses is released; docs/kurento.md#sessions), and the connection closes. Every event stream ends.
    public func close() async {
        let (sessionId, wasClosed) = state.withLock { s -> (String?, Bool) in
            defer { s.closed = true }
            return (s.sessionId, s.closed)
        }
        guard !wasClosed else { return }
        if let sessionId, rpc.isConnected {
            _ = try? await rpc.call("closeSession", params: ["sessionId": .string(sessionId)],
                                    timeout: configuration.requestTimeout)
        }
        lose(KurentoError.connectionLost("the client was closed"), publishing: .disconnected("closed"))
        await rpc.close()
    }

    func publish(_ event: KurentoConnectionEvent) {
        logger.info("kms \(event)", metadata: ["kms": "\(name)"])
        for observer in connectionObservers.withLock({ $0 }) { observer(event) }
        connectionHub.publish(event)
    }
}
