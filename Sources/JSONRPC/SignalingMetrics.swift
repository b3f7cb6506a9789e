public import CoreMetrics

/// Where the servers and clients of this package send their metrics: a swift-metrics `MetricsFactory`, given to
/// each endpoint through its configuration (``JSONRPCServer/Configuration/metrics``,
/// ``JSONRPCClient/Configuration/metrics``, `SignalingClientConfiguration.metrics`, and `RoomServer`'s), so that
/// the library never bootstraps anything itself and tests need no global state.
///
/// The default, `SignalingMetrics()`, takes `MetricsSystem.factory` when the configuration is made: whatever the
/// process bootstrapped, or swift-metrics' no-op factory. With the no-op factory (``isEnabled`` false) no
/// instrument is made at all, and the call path only tests an optional. Instruments are made once, when an
/// endpoint (or a method) is set up, never per request.
///
/// Every metric, as a Prometheus scrape shows it (docs/operations.md#metrics):
///
/// | name | type | labels | what |
/// |---|---|---|---|
/// | `signaling_connections` | gauge | | connections being served (Room and Tree) |
/// | `signaling_sessions` | gauge | | live sessions: connected, or waiting in their reconnection window |
/// | `signaling_rooms` | gauge | | rooms this node holds (announced: a first join went through) |
/// | `signaling_participants` | gauge | | joined participants whose session this node holds |
/// | `signaling_publishers` | gauge | | publisher endpoints the media backend created |
/// | `signaling_subscriptions` | gauge | | subscriber endpoints the media backend created |
/// | `signaling_requests_total` | counter | `method`, `outcome`, `code` | requests answered: `outcome` is `result`, `error` (with the error `code`) or `timeout` (the handler deadline, -32001) |
/// | `signaling_request_duration_seconds` | histogram | `method` | from the start of a request's handler (slot wait included) to its response |
/// | `signaling_notifications_queued_total` | counter | | notifications put in a session's outbox |
/// | `signaling_notifications_sent_total` | counter | | notifications the connection reported written |
/// | `signaling_notifications_dropped_total` | counter | | notifications never to be sent: refused by an overflowed outbox, discarded while disconnected, or left when the session ended |
/// | `signaling_outbox_depth` | gauge | | notifications waiting in all outboxes, not yet reported written |
/// | `signaling_resumes_total` | counter | | sessions re-bound by `connect{sessionId}` |
/// | `signaling_closes_total` | counter | `reason` | connections the server closed: `rate_limit`, `overflow`, `ping_timeout`, `takeover`, `message_too_big` |
/// | `signaling_reconnections_total` | counter | `outcome` | client side: reconnections `resumed`, `fresh` (a new session) or `gave_up` |
/// | `signaling_cluster_redis_round_trip_seconds` | histogram | | each Redis command or transaction of a cluster node |
/// | `signaling_cluster_events_total` | counter | `direction`, `type` | cluster events `sent` and `received`, by kind |
/// | `signaling_cluster_redis_outages_total` | counter | | times a cluster node lost its Redis subscription |
/// | `kurento_request_duration_seconds` | histogram | `kms` | a `KurentoClient`'s requests to Kurento Media Server, from the send to KMS's answer (a pipelined batch is one sample) |
/// | `kurento_objects` | gauge | `kms` | media objects a `KurentoClient` created at that KMS and has not released |
/// | `kurento_errors_total` | counter | `kms`, `kind` | KMS failures: `reply` (an error answer), `timeout`, `event` (an `Error` event), `session` (a lost session) |
///
/// `method` is a method registered on the server, a built-in (`ping`, `connect`, `closeSession`), `unknown` for
/// any other name (so that garbage never makes a new series) or `invalid` for what was not a request at all
/// (-32700, -32600). A re-sent request answered from the duplicate cache is not counted again.
public struct SignalingMetrics: Sendable {
    /// The factory every instrument is made by.
    public let factory: any MetricsFactory
    /// Whether instruments are made: false for swift-metrics' no-op factory.
    public let isEnabled: Bool

    /// Metrics made by `factory`; by default whatever the process bootstrapped (`MetricsSystem.factory`, read
    /// now), which is a no-op until `MetricsSystem.bootstrap` runs.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        isEnabled = !(factory is NOOPMetricsHandler)
    }

    /// No metrics at all, whatever the process bootstrapped.
    public static var disabled: SignalingMetrics { SignalingMetrics(factory: NOOPMetricsHandler.instance) }

    /// Histogram buckets suited to ``Name/requestDuration``: 250 µs to 30 s (in-memory handlers answer in
    /// microseconds, a backend may take the whole handler deadline), 11 of them like swift-prometheus's default
    /// (each one costs every recording a comparison). A Prometheus factory takes them per label
    /// (`durationHistogramBuckets`).
    public static let requestDurationBuckets: [Duration] = [
        .microseconds(250), .milliseconds(1), .microseconds(2500), .milliseconds(10), .milliseconds(25),
        .milliseconds(100), .milliseconds(250), .seconds(1), .milliseconds(2500), .seconds(10), .seconds(30),
    ]

    /// The metric names of the table above (the cluster's are in `RoomCluster`'s `ClusterMetrics`, the Kurento
    /// client's in `KurentoClient.MetricName`).
    public enum Name {
        /// Gauge: connections being served.
        public static let connections = "signaling_connections"
        /// Gauge: live sessions.
        public static let sessions = "signaling_sessions"
        /// Gauge: rooms this node holds.
        public static let rooms = "signaling_rooms"
        /// Gauge: joined participants this node holds.
        public static let participants = "signaling_participants"
        /// Gauge: publisher endpoints.
        public static let publishers = "signaling_publishers"
        /// Gauge: subscriber endpoints.
        public static let subscriptions = "signaling_subscriptions"
        /// Counter by `method`, `outcome` and `code`: requests answered.
        public static let requests = "signaling_requests_total"
        /// Histogram (a swift-metrics `Timer`) by `method`: request latency.
        public static let requestDuration = "signaling_request_duration_seconds"
        /// Counter: notifications put in an outbox.
        public static let notificationsQueued = "signaling_notifications_queued_total"
        /// Counter: notifications reported written.
        public static let notificationsSent = "signaling_notifications_sent_total"
        /// Counter: notifications never to be sent.
        public static let notificationsDropped = "signaling_notifications_dropped_total"
        /// Gauge: notifications waiting in all outboxes.
        public static let outboxDepth = "signaling_outbox_depth"
        /// Counter: sessions resumed.
        public static let resumes = "signaling_resumes_total"
        /// Counter by `reason`: connections the server closed.
        public static let closes = "signaling_closes_total"
        /// Counter by `outcome`: client reconnections.
        public static let reconnections = "signaling_reconnections_total"
    }

    /// Why the server closed a connection (the `reason` of ``Name/closes``).
    package enum CloseReason: String, CaseIterable, Sendable {
        /// A session that kept sending past twice its request rate (1008).
        case rateLimit = "rate_limit"
        /// A session whose outbox overflowed (1008).
        case overflow
        /// A session that stopped pinging (1001).
        case pingTimeout = "ping_timeout"
        /// A session taken over by `connect{sessionId}` from another socket (4409).
        case takeover
        /// A connection that sent a message over the transport's size limit (1009).
        case messageTooBig = "message_too_big"
    }

    /// The counter of closes for `reason`, or `nil` when disabled.
    package func closeCounter(_ reason: CloseReason) -> Counter? {
        guard isEnabled else { return nil }
        return Counter(label: Name.closes, dimensions: [("reason", reason.rawValue)], factory: factory)
    }

    /// A gauge named `name`, or `nil` when disabled (for the room gauges of `RoomServer`).
    package func gauge(_ name: String) -> Meter? {
        guard isEnabled else { return nil }
        return Meter(label: name, dimensions: [], factory: factory)
    }
}
