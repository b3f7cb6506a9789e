import JSONRPC
import Logging
import SignalingSupport
import WebSocketTransport

extension RoomClient {
    /// Client settings (DESIGN §5 defaults).
    public struct Configuration: Sendable {
        /// Time allowed for the first attempt of a request; each retry doubles it. Default 5 s.
        public var requestTimeout: Duration
        /// Re-sends of the same request id after a timeout. Default 1. A stock Kurento server does not dedupe
        /// ids, so a retried `publishVideo` can run twice there: use 0 against it (DESIGN §5).
        public var retries: Int
        /// The WebSocket options: TLS trust (`webSocket.tls`), extra headers, handshake timeout and limits.
        public var webSocket: WebSocketClientConfiguration
        /// A bearer token, sent as `Authorization: Bearer <token>` on the upgrade request (DESIGN §6).
        public var authToken: String?
        /// Where the client logs. Default: discards everything.
        public var logger: Logger
        /// The clock behind the request timers. Tests inject a `ManualClock`.
        public var clock: any SignalingClock
        /// Per-subscriber buffer of ``RoomClient/events``. Default 1,024.
        public var eventBufferLimit: Int
        /// What happens on a drop: reconnect and resume, and rejoin when the server lost the session. Default
        /// ``JSONRPC/JSONRPCClient/ReconnectPolicy/standard``; `.off` ends the client at the first drop.
        public var reconnect: JSONRPCClient.ReconnectPolicy
        /// The `ping` heartbeat. Default ``JSONRPC/JSONRPCClient/Heartbeat/standard`` (every 5 s).
        public var heartbeat: JSONRPCClient.Heartbeat
        /// Makes the media recovery after a rejoin automatic: fresh offers for the publication and the
        /// subscriptions, and their answers applied. `nil` (the default): the client publishes
        /// ``RoomEvent/renegotiationNeeded(_:)`` instead.
        public var offerProvider: OfferProvider?
        /// More endpoints of the same rooms (the other nodes of a room-server cluster), tried in order after
        /// ``Room/url`` when it does not take a connection (``JSONRPC/FailoverTransport``): a client whose node
        /// died reconnects to the next and rejoins there. Default: none.
        public var failoverURLs: [String]

        /// Creates a configuration; every argument has the DESIGN §5 default.
        public init(
            requestTimeout: Duration = .seconds(5),
            retries: Int = 1,
            webSocket: WebSocketClientConfiguration = .init(),
            authToken: String? = nil,
            logger: Logger = .disabled(label: "KurentoSignaling.RoomClient"),
            clock: any SignalingClock = SystemClock(),
            eventBufferLimit: Int = 1024,
            reconnect: JSONRPCClient.ReconnectPolicy = .standard,
            heartbeat: JSONRPCClient.Heartbeat = .standard,
            offerProvider: OfferProvider? = nil,
            failoverURLs: [String] = []
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
            self.offerProvider = offerProvider
            self.failoverURLs = failoverURLs
        }

        /// The JSON-RPC settings these imply.
        var rpc: JSONRPCClient.Configuration {
            .init(requestTimeout: requestTimeout, retries: retries, reconnect: reconnect, heartbeat: heartbeat, logger: logger,
                  clock: clock)
        }

        /// The WebSocket options with the `Authorization` header added when there is a token.
        var webSocketWithAuthorization: WebSocketClientConfiguration { webSocket.authorized(by: authToken) }
    }
}
