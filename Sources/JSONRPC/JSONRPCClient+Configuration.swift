import Logging
import SignalingSupport

extension JSONRPCClient {
    /// What happens when the connection drops. Only ``off`` exists so far (DESIGN §5).
    public enum ReconnectPolicy: Sendable, Hashable {
        /// No reconnect: a drop completes every pending request with ``RPCError/connectionClosed(_:)``.
        case off
    }

    /// Client settings (DESIGN §5 defaults).
    public struct Configuration: Sendable {
        /// Time allowed for the first attempt of a request; each retry doubles it. Default 5 s.
        public var requestTimeout: Duration
        /// Re-sends of the same id after a timeout. Default 1. Stock Kurento servers do not dedupe ids, so a
        /// retried non-idempotent call can run twice there: use 0 against them (DESIGN §5).
        public var retries: Int
        /// Whether a call on a disconnected client connects first. Default on.
        public var autoConnect: Bool
        /// What happens on a drop. Default ``ReconnectPolicy/off``.
        public var reconnect: ReconnectPolicy
        /// Where the client logs. Default: discards everything.
        public var logger: Logger
        /// The clock behind every timer. Tests inject a `ManualClock`.
        public var clock: any SignalingClock
        /// Per-subscriber buffer of ``JSONRPCClient/notifications``. Default 1,024.
        public var notificationBufferLimit: Int
        /// Deepest JSON nesting accepted. Default 128 (DESIGN §5).
        public var maxDepth: Int

        /// Creates a configuration; every argument has the DESIGN §5 default.
        public init(
            requestTimeout: Duration = .seconds(5),
            retries: Int = 1,
            autoConnect: Bool = true,
            reconnect: ReconnectPolicy = .off,
            logger: Logger = Logger(label: "KurentoSignaling.JSONRPCClient", factory: { _ in SwiftLogNoOpLogHandler() }),
            clock: any SignalingClock = SystemClock(),
            notificationBufferLimit: Int = 1024,
            maxDepth: Int = JSONParser.defaultMaxDepth
        ) {
            self.requestTimeout = requestTimeout
            self.retries = retries
            self.autoConnect = autoConnect
            self.reconnect = reconnect
            self.logger = logger
            self.clock = clock
            self.notificationBufferLimit = notificationBufferLimit
            self.maxDepth = maxDepth
        }
    }
}
