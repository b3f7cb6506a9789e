public import JSONRPC
public import Logging
public import SignalingSupport

extension KurentoClient {
    /// How a ``KurentoClient`` talks to Kurento Media Server (docs/kurento.md#client).
    public struct Configuration: Sendable {
        /// How long a request waits for KMS's answer. Default 10 s (kurento-client-java's
        /// `kurento.client.requestTimeout`).
        public var requestTimeout: Duration
        /// How long a `create` stays on the wire after its caller gave up waiting, so that the object a late answer
        /// names is released rather than leaked (docs/kurento.md#timeouts). At least ``requestTimeout``. Default 60 s.
        public var lateAnswerWindow: Duration
        /// How long the client keeps reconnecting into its KMS session after the connection drops. KMS keeps a
        /// disconnected session's objects until its garbage collector has seen the session unused for one full
        /// period (240 s by default, so objects live 240–480 s; docs/kurento.md#sessions): within that time a
        /// reconnect with `connect {sessionId}` finds them. Default 240 s.
        public var sessionRetention: Duration
        /// The delay before the first reconnection attempt, doubled per attempt up to ``maximumReconnectDelay``.
        /// Default 250 ms.
        public var initialReconnectDelay: Duration
        /// The longest delay between reconnection attempts. Default 2 s (kurento-client-java's
        /// `reconnectionDelay`).
        public var maximumReconnectDelay: Duration
        /// The interval of the `ping` heartbeat; `nil` turns it off. KMS answers a ping in the order of the requests
        /// before it, so the interval must be longer than the slowest request KMS may take, or a busy KMS would be
        /// taken for a lost one. Default 60 s (kurento-client-js's heartbeat).
        public var heartbeat: Duration?
        /// How many events a ``KurentoEventStream`` buffers before it ends with ``KurentoEventOverflow``.
        /// Default 1,024.
        public var eventBufferLimit: Int
        /// Where the client logs.
        public var logger: Logger
        /// The clock of every timer.
        public var clock: any SignalingClock
        /// Where the client's metrics go (docs/operations.md#metrics: `kurento_*`, labelled with the client's
        /// ``KurentoClient/name``). Default: the factory the process bootstrapped (none: no metrics).
        public var metrics: SignalingMetrics

        /// Creates a configuration; every argument has its documented default.
        public init(
            requestTimeout: Duration = .seconds(10),
            lateAnswerWindow: Duration = .seconds(60),
            sessionRetention: Duration = .seconds(240),
            initialReconnectDelay: Duration = .milliseconds(250),
            maximumReconnectDelay: Duration = .seconds(2),
            heartbeat: Duration? = .seconds(60),
            eventBufferLimit: Int = 1024,
            logger: Logger = .disabled(label: "KurentoSignaling.KurentoClient"),
            clock: any SignalingClock = SystemClock(),
            metrics: SignalingMetrics = SignalingMetrics()
        ) {
            self.requestTimeout = requestTimeout
            self.lateAnswerWindow = lateAnswerWindow
            self.sessionRetention = sessionRetention
            self.initialReconnectDelay = initialReconnectDelay
            self.maximumReconnectDelay = maximumReconnectDelay
            self.heartbeat = heartbeat
            self.eventBufferLimit = eventBufferLimit
            self.logger = logger
            self.clock = clock
            self.metrics = metrics
        }

        /// The JSON-RPC client's settings: no retries (KMS caches an answer only once it is sent, so a retry of a
        /// request still running would run it twice), reconnects for ``sessionRetention``, the heartbeat, and the
        /// requests in flight at a drop re-sent with their ids after a resume (KMS answers one it ran in the last
        /// 20 s from its request cache, so the answer that the drop lost arrives after all).
        var rpc: JSONRPCClient.Configuration {
            let backoff = JSONRPCClient.Backoff(
                initialDelay: initialReconnectDelay, maximumDelay: maximumReconnectDelay,
                budget: sessionRetention, reconnectionWindow: sessionRetention)
            return JSONRPCClient.Configuration(
                requestTimeout: requestTimeout, retries: 0, autoConnect: true, reconnect: .automatic(backoff),
                heartbeat: heartbeat.map { .every($0) } ?? .off, logger: logger, clock: clock,
                metrics: metrics, resendsOnResume: true, assumedCapabilities: .dedupe,
                acknowledgesNotifications: false)
        }
    }
}
