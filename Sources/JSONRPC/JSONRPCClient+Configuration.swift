public import Logging
public import SignalingSupport

extension JSONRPCClient {
    /// What happens when the connection drops (docs/architecture.md#reconnect).
    public enum ReconnectPolicy: Sendable, Hashable {
        /// No reconnect: a drop completes every pending request with ``RPCError/connectionClosed(_:)`` at once.
        case off
        /// Reconnect with this backoff, then resume the session with `connect{sessionId}`
        /// (docs/wire-protocol.md#sessions).
        case automatic(Backoff)

        /// The default (docs/architecture.md#defaults): ``automatic(_:)`` with ``Backoff/init(initialDelay:maximumDelay:jitter:budget:reconnectionWindow:queueLimit:seed:)``'s defaults.
        public static let standard = ReconnectPolicy.automatic(Backoff())

        /// The backoff, when reconnecting.
        public var backoff: Backoff? { if case .automatic(let backoff) = self { backoff } else { nil } }
    }

    /// The heartbeat: a JSON-RPC `ping` every ``interval`` (docs/architecture.md#heartbeat,
    /// docs/wire-protocol.md#heartbeat).
    ///
    /// The first ping after each (re)connect carries `{"interval": ms}` so the server arms its watchdog. Any reply,
    /// even an error, proves liveness; no reply within one interval is a lost connection (reconnect, when
    /// allowed). Pings never retry.
    public enum Heartbeat: Sendable, Hashable {
        /// No pings (a server's ping watchdog then never arms; lws's own WebSocket pings still run).
        case off
        /// A ping every `interval`; the first one `interval` after the connection opens.
        case every(Duration)

        /// The default (docs/architecture.md#defaults): every 5 s.
        public static let standard = Heartbeat.every(.seconds(5))

        /// The ping interval, when on.
        public var interval: Duration? { if case .every(let interval) = self { interval } else { nil } }
    }

    /// How ``ReconnectPolicy/automatic(_:)`` spaces its attempts (docs/architecture.md#reconnect): ``initialDelay``
    /// doubling up to ``maximumDelay``, each delay moved by up to ±``jitter``, then capped by the time left in the
    /// server's ``reconnectionWindow`` (so the last attempt still finds the session); it gives up ``budget`` after the
    /// loss.
    public struct Backoff: Sendable, Hashable {
        /// The delay before the first attempt. Default 250 ms.
        public var initialDelay: Duration
        /// The largest delay between attempts. Default 4 s.
        public var maximumDelay: Duration
        /// The relative jitter applied to each delay, 0…1. Default 0.2 (±20 %).
        public var jitter: Double
        /// Total time allowed from the loss to a working connection; then the client ends in
        /// ``ConnectionState/disconnected(_:)``. Default 60 s.
        public var budget: Duration
        /// The server's reconnection window (how long it keeps the session). Default 10 s, the server default.
        public var reconnectionWindow: Duration
        /// How many sends may wait for the reconnection; more fail with ``RPCError/connectionClosed(_:)``.
        /// Default 1,000.
        public var queueLimit: Int
        /// A seed for the jitter, for reproducible tests; `nil` (the default) draws one at random.
        public var seed: UInt64?

        /// Creates a backoff; every argument has the default in docs/architecture.md#defaults.
        public init(initialDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(4),
                    jitter: Double = 0.2, budget: Duration = .seconds(60), reconnectionWindow: Duration = .seconds(10),
                    queueLimit: Int = 1000, seed: UInt64? = nil) {
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
            self.jitter = min(max(jitter, 0), 1)
            self.budget = budget
            self.reconnectionWindow = reconnectionWindow
            self.queueLimit = max(0, queueLimit)
            self.seed = seed
        }

        /// The delay before attempt `attempt` (from 1), `elapsed` after the loss.
        /// - Parameters:
        ///   - attempt: the attempt's number, from 1.
        ///   - elapsed: the time since the connection was lost.
        ///   - unit: a random number in 0..<1 that places the jitter (0.5 means none).
        /// - Returns: `nil` when the budget is spent: give up.
        public func delay(attempt: Int, elapsed: Duration, unit: Double) -> Duration? {
            guard elapsed < budget else { return nil }
            var base = initialDelay
            for _ in 1..<max(1, attempt) where base < maximumDelay { base = base * 2 }
            base = min(base, maximumDelay)
            var delay = base * (1 + jitter * (2 * min(max(unit, 0), 1) - 1))
            let windowLeft = reconnectionWindow - elapsed
            if windowLeft > .zero { delay = min(delay, windowLeft) }
            return max(.zero, min(delay, budget - elapsed))
        }
    }

    /// Client settings (defaults in docs/architecture.md#defaults).
    public struct Configuration: Sendable {
        /// Time allowed for the first attempt of a request; each retry doubles it. Default 5 s.
        public var requestTimeout: Duration
        /// Retries after a timeout, each with twice the previous timeout. Default 1. A retry re-sends the same id only
        /// to a server that said it dedupes (``JSONRPCClient/serverCapabilities``): stock Kurento servers do not, so
        /// there it only waits longer. A client that never asks (``acknowledgesNotifications`` off) re-sends until a
        /// resume tells it; use 0 for it against a stock server (docs/wire-protocol.md#stock-kurento).
        public var retries: Int
        /// Whether a call on a disconnected client connects first. Default on.
        public var autoConnect: Bool
        /// What happens on a drop. Default ``ReconnectPolicy/standard`` (reconnect and resume).
        public var reconnect: ReconnectPolicy
        /// The `ping` heartbeat. Default ``Heartbeat/standard`` (every 5 s).
        public var heartbeat: Heartbeat
        /// Where the client logs. Default: discards everything.
        public var logger: Logger
        /// The clock behind every timer. Tests inject a `ManualClock`.
        public var clock: any SignalingClock
        /// Per-subscriber buffer of ``JSONRPCClient/notifications``. Default 1,024.
        public var notificationBufferLimit: Int
        /// Deepest JSON nesting accepted. Default 128 (docs/architecture.md#defaults).
        public var maxDepth: Int
        /// Whether the client reads its connection on the connection's executor (a WebSocket's event-loop thread)
        /// and completes calls there. Worth it when the callers run there too
        /// (`withTaskExecutorPreference(WebSocketEventLoop.shared.executor)`, code that never blocks): a call then
        /// crosses no thread at all. Callers elsewhere pay one wake-up per response this way, so the default,
        /// `false`, reads on the global executor, which hands a burst of responses to its callers in one go.
        /// Observers, `apply` closures and server-request handlers never run on the event loop either way.
        public var readsOnEventLoop: Bool
        /// Where the client's metrics go (docs/operations.md#metrics: `signaling_reconnections_total` by outcome).
        /// Default: the factory the process bootstrapped when this configuration was made (none: no metrics).
        public var metrics: SignalingMetrics
        /// Whether the requests in flight when the connection dropped are re-sent with their ids after a resume.
        /// Default on, and done only when the server says it dedupes (``ServerCapabilities/dedupe`` in its `connect`
        /// result, which this package's servers send). Otherwise they fail with ``RPCError/connectionClosed(_:)``:
        /// a stock Kurento server may have run them already (docs/wire-protocol.md#stock-kurento).
        public var resendsOnResume: Bool
        /// Capabilities the server has though its `connect` result does not list them: Kurento Media Server answers
        /// a repeated request id from its cache for 20 s without saying so (docs/kurento.md#sessions), so a
        /// `KurentoClient` assumes ``ServerCapabilities/dedupe``. Added to what each resume reports
        /// (``JSONRPCClient/serverCapabilities``). Default: none.
        public var assumedCapabilities: ServerCapabilities
        /// Whether the client opens each session with `connect {"received": 0}`, counts the server's notifications
        /// and, to a server that lists ``ServerCapabilities/replay`` in its answer, acknowledges them
        /// (`rpc.ack`, and in its pings) and names the last one it read when it resumes: the server then hands the
        /// new connection exactly the ones after it, whatever the lost link held (docs/wire-protocol.md#delivery).
        /// A stock Kurento server answers the `connect` with `"OK"` and lists nothing: the client then sends no
        /// acknowledgement. Default off, since a plain JSON-RPC server answers that `connect` with -32601 and one
        /// written for a fixed dialogue may not expect it; `RoomClient` and `TreeClient` turn it on. Turn it on for
        /// any server of this package (`JSONRPCServer` with ``JSONRPCServer/Conventions/kurento``).
        public var acknowledgesNotifications: Bool
        /// How long ``JSONRPCClient/connect()`` waits for the answer to the session's opening `connect`
        /// (``acknowledgesNotifications``) before it returns anyway. A server of this package answers it only once its
        /// upgrade authorizer accepted the connection, so a refusal right after the handshake (close 4401) fails
        /// `connect()` itself; a server that never answers it delays `connect()` by this much. Default 2 s.
        public var openingWait: Duration

        /// Creates a configuration; every argument has the default in docs/architecture.md#defaults.
        public init(
            requestTimeout: Duration = .seconds(5),
            retries: Int = 1,
            autoConnect: Bool = true,
            reconnect: ReconnectPolicy = .standard,
            heartbeat: Heartbeat = .standard,
            logger: Logger = .disabled(label: "KurentoSignaling.JSONRPCClient"),
            clock: any SignalingClock = SystemClock(),
            notificationBufferLimit: Int = 1024,
            maxDepth: Int = JSONParser.defaultMaxDepth,
            readsOnEventLoop: Bool = false,
            metrics: SignalingMetrics = SignalingMetrics(),
            resendsOnResume: Bool = true,
            assumedCapabilities: ServerCapabilities = [],
            acknowledgesNotifications: Bool = false,
            openingWait: Duration = .seconds(2)
        ) {
            self.requestTimeout = requestTimeout
            self.retries = retries
            self.autoConnect = autoConnect
            self.reconnect = reconnect
            self.heartbeat = heartbeat
            self.logger = logger
            self.clock = clock
            self.notificationBufferLimit = notificationBufferLimit
            self.maxDepth = maxDepth
            self.readsOnEventLoop = readsOnEventLoop
            self.metrics = metrics
            self.resendsOnResume = resendsOnResume
            self.assumedCapabilities = assumedCapabilities
            self.acknowledgesNotifications = acknowledgesNotifications
            self.openingWait = openingWait
        }

        /// Settings safe against a stock Kurento server (docs/wire-protocol.md#stock-kurento), which neither dedupes
        /// request ids nor replays missed notifications: a 15 s timeout (a media server may take 10–20 s to
        /// publish; KurentoRoom.js waits 15 s), no retries, and nothing re-sent after a resume.
        public static var stockKurento: Configuration {
            Configuration(requestTimeout: .seconds(15), retries: 0, resendsOnResume: false)
        }
    }
}
