/// Trust settings for `wss://` clients. Verification is on by default, with the host name checked.
///
/// Without ``caFile`` the client trusts the system store, found the way OpenSSL finds it: the file named by
/// `SSL_CERT_FILE` and the hashed directories named by `SSL_CERT_DIR`, else OpenSSL's default file and directory
/// (on Debian `/usr/lib/ssl/cert.pem` and `/usr/lib/ssl/certs`). A loop reads the environment once per trust
/// setting, when it first uses it (for the default one: when the loop starts).
public struct TLSClientConfiguration: Sendable, Hashable {
    /// A PEM file of CA certificates to trust instead of the system store (which is then not consulted at all).
    public var caFile: String?
    /// Accept self-signed certificates. Off unless set explicitly.
    public var allowSelfSigned: Bool
    /// Skip the host name check. Off unless set explicitly.
    public var skipHostnameCheck: Bool
    /// The TLS versions and ciphers offered to servers; ``TLSCipherPolicy/forwardSecret`` by default.
    public var policy: TLSCipherPolicy

    /// Creates a trust configuration; the defaults verify against the system store and check the host name.
    public init(caFile: String? = nil, allowSelfSigned: Bool = false, skipHostnameCheck: Bool = false,
                policy: TLSCipherPolicy = .forwardSecret) {
        self.caFile = caFile
        self.allowSelfSigned = allowSelfSigned
        self.skipHostnameCheck = skipHostnameCheck
        self.policy = policy
    }
}

/// Limits and timers shared by client and server connections.
public struct ConnectionLimits: Sendable, Hashable {
    /// The largest inbound message accepted; a bigger one closes the connection with 1009.
    public var maxMessageSize: Int = 1 << 20
    /// Outbound messages larger than this go out as several frames.
    public var maxFrameSize: Int = 64 << 10
    /// Buffered inbound bytes above which reading pauses (`lws_rx_flow_control`).
    public var inboundHighWatermark: Int = 4 << 20
    /// Buffered inbound bytes below which reading resumes.
    public var inboundLowWatermark: Int = 1 << 20
    /// Queued outbound bytes above which the connection is closed with 1008 (a slow consumer).
    public var maxOutboundBytes: Int = 8 << 20
    /// Time without a sign of life from the peer (a frame or a PONG) after which a WebSocket PING goes out; `nil`
    /// (or a value at or above ``idleTimeout``) disables it. Checked by the loop's keep-alive sweep: never early, and late
    /// by at most one sweep (a quarter of the shortest keep-alive interval, at most about a second;
    /// docs/libwebsockets.md#keepalive).
    public var pingInterval: Duration? = .seconds(30)
    /// Time without a sign of life from the peer (a frame or a PONG) after which the connection is dropped (closed
    /// as 1006 "abnormal", without a close frame); `nil` disables it.
    public var idleTimeout: Duration? = .seconds(40)
    /// How often a server-side connection sends a WebSocket PING of its own to measure the round-trip time
    /// (``WebSocketConnection/roundTripTime``); `nil` disables the probe. One timer per server probes all its open
    /// connections at once, so an idle loop wakes once per interval, not once per connection
    /// (docs/libwebsockets.md#round-trip-probe). Client connections do not probe.
    public var rttProbeInterval: Duration? = .seconds(10)
    /// The most connections one probe round pings, about: with more open connections, each round pings the ones not
    /// measured yet and a rotating share of the others, so each is measured once in `⌈count / limit⌉` intervals and
    /// the probe costs at most about `limit` PINGs per interval (10,000 idle clients probed all at once every 10 s
    /// cost 4 % of a core). Values below 1 count as 1.
    public var rttProbeLimit = 1000

    /// Creates the default limits (docs/architecture.md#defaults).
    public init() {}
}

/// Options of a client connection.
public struct WebSocketClientConfiguration: Sendable {
    /// TLS trust for `wss://` URLs.
    public var tls = TLSClientConfiguration()
    /// Extra headers sent with the upgrade request, e.g. `("Authorization", "Bearer …")`.
    public var headers: [(name: String, value: String)] = []
    /// The subprotocol to ask for (`Sec-WebSocket-Protocol`), if any.
    public var subprotocol: String?
    /// Time allowed for name resolution, TCP connect, TLS and the WebSocket handshake together.
    public var handshakeTimeout: Duration = .seconds(10)
    /// Resolves the URL's host name, off the service thread. Default ``HostResolver/system``.
    public var resolver = HostResolver.system
    /// Message size limits, flow control and keep-alive.
    public var limits = ConnectionLimits()

    /// Creates the default client options.
    public init() {}

    /// These options with `Authorization: Bearer <token>` replacing any `Authorization` header
    /// (docs/architecture.md#identity); the options unchanged when `token` is nil.
    public func authorized(by token: String?) -> WebSocketClientConfiguration {
        guard let token else { return self }
        var options = self
        options.headers.removeAll { $0.name.lowercased() == "authorization" }
        options.headers.append((name: "Authorization", value: "Bearer \(token)"))
        return options
    }
}

/// Options of a listening server.
public struct WebSocketServerConfiguration: Sendable {
    /// The address to bind; `127.0.0.1` by default.
    public var host: String = "127.0.0.1"
    /// The port; 0 asks for an ephemeral port (see ``WebSocketServer/port``).
    public var port: Int = 0
    /// PEM certificate and key files; when set, the server speaks `wss://`. ``WebSocketServer/reloadCertificate()``
    /// reads them again while the server runs.
    public var tls: (certificateFile: String, privateKeyFile: String)?
    /// The TLS versions and ciphers a `wss://` server accepts; ``TLSCipherPolicy/forwardSecret`` by default.
    public var tlsPolicy = TLSCipherPolicy.forwardSecret
    /// Time an accepted socket has to complete the upgrade before it is dropped (slowloris protection).
    public var handshakeTimeout: Duration = .seconds(5)
    /// Open connections allowed from one peer address; one more upgrade is refused with HTTP 429 before the
    /// ``upgradeFilter`` runs (docs/wire-protocol.md#limits, "max connections per IP"). `nil` (the default): no limit.
    public var maxConnectionsPerAddress: Int?
    /// Subprotocols the server accepts besides none at all.
    public var subprotocols: [String] = []
    /// Header names (case-insensitive) captured into ``UpgradeRequest/headers`` besides the standard set (which
    /// includes `authorization`, `origin`, `host`, `user-agent`, `cookie`, `x-forwarded-for`, `traceparent` and
    /// `tracestate`).
    public var extraHeaderNames: [String] = []
    /// A quick first look at each upgrade (routing by path, say), answered with an HTTP status. It runs on the
    /// event loop's service thread, where every connection is served: it must be fast, must not block and must
    /// not call back into the transport. Anything slower (tokens, a database, another service) belongs in
    /// ``authorizeUpgrade``.
    public var upgradeFilter: (@Sendable (UpgradeRequest) -> UpgradeDecision)?
    /// Decides each upgrade that passed ``upgradeFilter``, off the service thread and without holding anyone
    /// else up. It runs after the handshake, while the new connection is held back from the application (what
    /// the client sends meanwhile waits, in order, under the usual inbound limits); a refusal closes the
    /// connection with ``UpgradeDecision/closeCode(forStatus:)`` (4401, 4403, …) and its reason. A decision that
    /// takes longer than ``handshakeTimeout`` is a refusal: close 1008 "authorization timed out".
    public var authorizeUpgrade: (@Sendable (UpgradeRequest) async -> UpgradeDecision)?
    /// Answers plain HTTP requests on this server's port (no upgrade). Runs off the service thread; nil: 426 as before.
    ///
    /// Each request runs in a task of its own, so a slow handler holds up nobody else; the response is written on
    /// the service thread, and the connection stays open for the next request when the client keeps it alive. Only
    /// `GET` and `HEAD` without a body reach the handler, and `POST` when ``maxHTTPBodySize`` allows bodies
    /// (docs/libwebsockets.md#plain-http). A request whose body framing is ambiguous (`Transfer-Encoding`, several
    /// `Content-Length`s, whitespace before a framing header's colon, a body on a `GET`) is answered 400 and its
    /// connection closed, so a body is never taken for a second request. A handler that takes longer than
    /// ``httpHandlerTimeout`` is answered 503 for it and its task is cancelled; so is a handler whose client went
    /// away, and its late response is dropped.
    public var httpHandler: (@Sendable (HTTPRequest) async -> HTTPResponse)?
    /// How long ``httpHandler`` may take before the request is answered 503 "Service Unavailable".
    public var httpHandlerTimeout: Duration = .seconds(10)
    /// The largest `POST` body ``httpHandler`` accepts, in bytes (``HTTPRequest/body``): it must come with one
    /// `Content-Length` (no chunked bodies) and arrive within ``handshakeTimeout``; a larger one is answered 413
    /// and its connection closed. `Content-Length: 0` is an empty body; a `POST` without any `Content-Length` is
    /// answered 411 and its connection closed. 0 (the default): no `POST` at all, answered 405.
    public var maxHTTPBodySize = 0
    /// Message size limits, flow control and keep-alive.
    public var limits = ConnectionLimits()

    /// Creates the default server options.
    public init() {}
}

