import JSONRPC
import Logging
import SignalingSupport

extension RoomServer {
    /// What a ``RoomServer`` is made of: where it listens, its media backend, limits, hooks and clock.
    public struct Configuration: Sendable {
        /// The address ``RoomServer/start(_:)`` listens on. Default `127.0.0.1`.
        public var host: String
        /// The TCP port; 0 picks a free one (read it back from ``RoomServer/url``). Default 0.
        public var port: Int
        /// Where endpoints and SDP answers come from. Default: a ``SimulatedMediaBackend``.
        public var media: any MediaBackend
        /// Rooms, participants, queued candidates and notifications (DESIGN §6).
        public var limits: RoomServerLimits
        /// How long a participant whose socket dropped stays in its room, waiting for `connect{sessionId}`
        /// (DESIGN §5). When it ends, the participant is evicted and the others get `participantLeft`. Default 10 s.
        public var reconnectionWindow: Duration
        /// The largest inbound message, in bytes (DESIGN §5); bigger ones close the socket with 1009. Default 1 MiB.
        public var maxMessageSize: Int
        /// Decides whether a join may proceed (DESIGN §6); a refusal answers 401 "unauthorized". It runs after the
        /// name is reserved, so it may take its time. Default: everyone may join.
        public var authorizeJoin: @Sendable (RoomJoinAttempt) async -> Bool
        /// Answers `customRequest`; `nil` (the default) answers as Kurento does, -1 "Unsupported method". Throw a
        /// `RoomError` or an `RPCErrorObject` to answer with that error; return `nil` for an empty result.
        public var customRequest: (@Sendable (RoomCustomRequest) async throws -> JSONValue?)?
        /// Where the server logs; session ids appear only redacted. Default: discards everything.
        public var logger: Logger
        /// The clock of the reconnection window and the JSON-RPC timers.
        public var clock: any SignalingClock

        /// Creates a configuration; every argument has its default.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            media: any MediaBackend = SimulatedMediaBackend(),
            limits: RoomServerLimits = .init(),
            reconnectionWindow: Duration = .seconds(10),
            maxMessageSize: Int = 1 << 20,
            authorizeJoin: @escaping @Sendable (RoomJoinAttempt) async -> Bool = { _ in true },
            customRequest: (@Sendable (RoomCustomRequest) async throws -> JSONValue?)? = nil,
            logger: Logger = Logger(label: "KurentoSignaling.RoomServer", factory: { _ in SwiftLogNoOpLogHandler() }),
            clock: any SignalingClock = SystemClock()
        ) {
            self.host = host
            self.port = port
            self.media = media
            self.limits = limits
            self.reconnectionWindow = reconnectionWindow
            self.maxMessageSize = maxMessageSize
            self.authorizeJoin = authorizeJoin
            self.customRequest = customRequest
            self.logger = logger
            self.clock = clock
        }
    }
}
