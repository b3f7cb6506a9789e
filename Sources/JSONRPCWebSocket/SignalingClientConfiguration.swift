public import Logging
public import SignalingSupport
public import WebSocketTransport
public import JSONRPC

/// The settings every typed signaling client over a ``/JSONRPC/JSONRPCClient`` shares (`RoomClient`, `TreeClient`): the
/// JSON-RPC timing, the WebSocket and its bearer token, logging, the clock and the event buffer.
///
/// `TreeClient.Configuration` is this type; `RoomClient.Configuration` holds one and adds its own settings, and
/// reads and writes these as its own members (`configuration.retries = 0`).
public struct SignalingClientConfiguration: Sendable {
    /// Time allowed for the first attempt of a request; each retry doubles it. Default 5 s.
    public var requestTimeout: Duration
    /// Re-sends of the same request id after a timeout. Default 1. The servers of this package answer a re-sent id
    /// once; a stock Kurento server does not dedupe ids, so a retried `publishVideo` or `addTreeSink` can run twice
    /// there: use 0 against it.
    public var retries: Int
    /// The WebSocket options: TLS trust (`webSocket.tls`), extra headers, handshake timeout and limits.
    public var webSocket: WebSocketClientConfiguration
    /// A bearer token, sent as `Authorization: Bearer <token>` on the upgrade request.
    public var authToken: String?
    /// Where the client logs. Default: discards everything.
    public var logger: Logger
    /// The clock behind the request timers. Tests inject a `ManualClock`.
    public var clock: any SignalingClock
    /// Per-subscriber buffer of the client's `events` (and of its delegate). Default 1,024.
    public var eventBufferLimit: Int
    /// What happens on a drop: reconnect and resume the session (a room client also rejoins when the server lost
    /// it). Default ``/JSONRPC/JSONRPCClient/ReconnectPolicy/standard``; `.off` ends the client at the first drop.
    public var reconnect: JSONRPCClient.ReconnectPolicy
    /// The `ping` heartbeat. Default ``/JSONRPC/JSONRPCClient/Heartbeat/standard`` (every 5 s).
    public var heartbeat: JSONRPCClient.Heartbeat
    /// Where the client's metrics go (docs/operations.md#metrics: its reconnections). Default: the factory the
    /// process bootstrapped when this configuration was made (none: no metrics).
    public var metrics: SignalingMetrics
    /// Whether requests in flight when the connection dropped are re-sent after a resume (only to a server that says
    /// it dedupes; ``/JSONRPC/JSONRPCClient/Configuration/resendsOnResume``). Default on.
    public var resendsOnResume: Bool
    /// Whether a call made while there is no connection opens one (a fresh session). Default on. A client that
    /// must not go on in a new session once its connection ended for good (a 1008 or 1009 close, see
    /// ``/JSONRPC/JSONRPCClient/reconnects(after:)``) turns it off and calls `connect()` itself: its calls then
    /// fail with ``/JSONRPC/RPCError/connectionClosed(_:)``.
    public var autoConnect: Bool

    /// Creates a configuration; every argument has the default its property documents.
    public init(
        requestTimeout: Duration = .seconds(5),
        retries: Int = 1,
        webSocket: WebSocketClientConfiguration = .init(),
        authToken: String? = nil,
        logger: Logger = .disabled(label: "KurentoSignaling.SignalingClient"),
        clock: any SignalingClock = SystemClock(),
        eventBufferLimit: Int = 1024,
        reconnect: JSONRPCClient.ReconnectPolicy = .standard,
        heartbeat: JSONRPCClient.Heartbeat = .standard,
        metrics: SignalingMetrics = SignalingMetrics(),
        resendsOnResume: Bool = true,
        autoConnect: Bool = true
    ) {
        self.requestTimeout = requestTimeout
        self.retries = retries
        self.webSocket = webSocket
        self.authToken = authToken
        self.logger = logger
        self.clock = clock
        self.eventBufferLimit = eventBufferLimit
        self.reconnect = reconnect
        self.heartbeat = heartbeat
        self.metrics = metrics
        self.resendsOnResume = resendsOnResume
        self.autoConnect = autoConnect
    }

    /// Settings safe against a stock Kurento Room or Tree server (docs/wire-protocol.md#stock-kurento), the
    /// ``/JSONRPC/JSONRPCClient/Configuration/stockKurento`` timing: 15 s per request, no retries, nothing re-sent
    /// after a resume.
    public static var stockKurento: SignalingClientConfiguration {
        let profile = JSONRPCClient.Configuration.stockKurento
        return SignalingClientConfiguration(requestTimeout: profile.requestTimeout, retries: profile.retries,
                                            resendsOnResume: profile.resendsOnResume)
    }

    /// The settings of the client's ``/JSONRPC/JSONRPCClient``.
    package var rpc: JSONRPCClient.Configuration {
        .init(requestTimeout: requestTimeout, retries: retries, autoConnect: autoConnect, reconnect: reconnect,
              heartbeat: heartbeat, logger: logger, clock: clock, metrics: metrics, resendsOnResume: resendsOnResume,
              acknowledgesNotifications: true)
    }

    /// The WebSocket options with the `Authorization` header added when there is a token.
    package var webSocketWithAuthorization: WebSocketClientConfiguration { webSocket.authorized(by: authToken) }
}
